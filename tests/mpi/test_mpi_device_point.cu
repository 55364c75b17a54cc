// Point functions on distributed device views (mpi/device_point_function.hpp), in the
// test_mpi_device program; compiled by nvcc, where the point-function kernels are
// instantiated, as in a user's .cu file. The distributed sweep with cuda::naive equals one
// process's cuda::naive sweep of the whole grid bit for bit: the acoustic step (u read to
// reach 4, u_prev and c^2 at the point) and div(k grad u) (u and k to reach 1), every
// boundary kind, every process grid, every transport here, overlapped where the grid allows
// (the inner box swept while the halos travel) and not (overlap::off). One exchange, made
// for k's ghost width 1, serves u's width 4 too (its buffers grow).
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include <tessera/algorithms/point_functions.hpp>
#include <tessera/mpi/mpi.hpp>
#include <tessera/tessera.hpp>

#include "mpi_device_test_support.hpp"

using namespace mpi_test;

namespace {

/// A distributed device copy of global field g: ghosts hold 7 (not the neighbours'
/// values), so only an exchange makes them right.
template <class T>
tmpi::distributed_view<T, 3, ts::CudaSpace> scatter_to_device(const ts::View<T, 3>& g, const tmpi::cartesian_domain<3>& dom,
                                                              int ghost) {
  tmpi::distributed_view<T, 3> h(g.label(), dom, ghost);
  std::fill(h.local().data(), h.local().data() + h.local().layout().span(), T(7));
  tmpi::scatter_from(g, h);
  tmpi::distributed_view<T, 3, ts::CudaSpace> d(g.label() + "_d", dom, ghost);
  ts::deep_copy(d.local(), h.local());
  return d;
}

template <class T>
void check_device_point_functions(std::uint64_t seed) {
  using P = ts::cuda::naive<>;
  const ts::extents<3> global{19, 14, 23};
  const auto wave = ts::physics::acoustic_step<T>{T(0.04)};
  const auto diffusion = ts::physics::div_k_grad<T>{T(3)};
  for (const auto& bc : boundary_cases<3>()) {
    ts::View<T, 3> up("u_prev", global, 0), u("u", global, 4), c2("c2", global, 0), k("k", global, 1);
    fill_random(up, seed), fill_random(u, seed + 1), fill_random(c2, seed + 2), fill_random(k, seed + 3);
    // one process: ghosts by the boundary conditions, then the same kernels
    ts::View<T, 3> wave_ref("wave_ref", global, 0), diff_ref("diff_ref", global, 0);
    {
      auto gu = to_device(u, "u_d"), gk = to_device(k, "k_d"), gup = to_device(up, "u_prev_d"), gc2 = to_device(c2, "c2_d");
      ts::fill_ghosts(gu, bc), ts::fill_ghosts(gk, bc);
      ts::View<T, 3, ts::CudaSpace> w("w", global, 0), dk("dk", global, 0);
      ts::apply(P{}, wave, ts::inputs(gup, gu, gc2), ts::outputs(w));
      ts::apply(P{}, diffusion, ts::inputs(gu, gk), ts::outputs(dk));
      ts::deep_copy(wave_ref, w), ts::deep_copy(diff_ref, dk);
    }
    for (const auto t : transports_to_try())
      for (const auto& dims : process_grids<3>()) {
        const tmpi::cartesian_domain<3> dom(MPI_COMM_WORLD, global, periodic_axes(bc), dims);
        if (thinner_than(dom, 4)) continue;
        auto dup = scatter_to_device(up, dom, 0), du = scatter_to_device(u, dom, 4), dc2 = scatter_to_device(c2, dom, 0),
             dk = scatter_to_device(k, dom, 1);
        tmpi::distributed_view<T, 3, ts::CudaSpace> wave_out("wave", dom, 0), diff_out("diff", dom, 0);
        tmpi::device_exchange<T, 3> ex(dk, t);
        tmpi::apply(P{}, wave, tmpi::inputs(dup, du, dc2), wave_out, bc, ex);
        tmpi::apply(P{}, diffusion, tmpi::inputs(du, dk), tmpi::outputs(diff_out), bc, ex);
        // the halos first, then the whole block (overlap::off): the same bits
        tmpi::distributed_view<T, 3, ts::CudaSpace> wave_whole("wave_whole", dom, 0);
        tmpi::apply(P{}, wave, tmpi::inputs(dup, du, dc2), wave_whole, bc, ex, tmpi::overlap::off);
        INFO(tmpi::to_string(t), ", ", grid_text(dom), ", ", bc_text(bc), ", overlapped: ",
             tmpi::overlap_possible<3>(dom.dims(), dom.local_extents(), 4));
        CHECK(block_mismatches(to_host(wave_out), wave_ref, 0) == 0);  // bit for bit
        CHECK(block_mismatches(to_host(diff_out), diff_ref, 0) == 0);
        CHECK(block_mismatches(to_host(wave_whole), wave_ref, 0) == 0);
      }
    // without an exchange: a host-staged one for the call
    const tmpi::cartesian_domain<3> dom(MPI_COMM_WORLD, global, periodic_axes(bc));
    auto du = scatter_to_device(u, dom, 4), dk = scatter_to_device(k, dom, 1);
    tmpi::distributed_view<T, 3, ts::CudaSpace> diff_out("diff", dom, 0);
    tmpi::apply(P{}, diffusion, tmpi::inputs(du, dk), diff_out, bc);
    INFO("default exchange, ", bc_text(bc));
    CHECK(block_mismatches(to_host(diff_out), diff_ref, 0) == 0);
  }
}

}  // namespace

TEST_CASE("point functions on distributed device views equal one process bit for bit") {
  check_device_point_functions<double>(51);
  check_device_point_functions<float>(52);
}

TEST_CASE("a distributed device point function refuses fields of another domain on every rank, by name") {
  const tmpi::cartesian_domain<3> dom(MPI_COMM_WORLD, ts::extents<3>{16, 16, 16});
  const tmpi::cartesian_domain<3> other(MPI_COMM_WORLD, ts::extents<3>{16, 16, 17});
  tmpi::distributed_view<double, 3, ts::CudaSpace> u("u", dom, 1), k("k_elsewhere", other, 1), out("out", dom, 0);
  tmpi::device_exchange<double, 3> ex(u);
  const auto msg = message_of<ts::extent_mismatch_error>(
      [&] { tmpi::apply(ts::cuda::naive<>{}, ts::physics::div_k_grad<double>{1.0}, tmpi::inputs(u, k), out, std::nullopt, ex); });
  CHECK(msg.find("'k_elsewhere'") != std::string::npos);
  CHECK(msg.find("one cartesian_domain") != std::string::npos);
}
