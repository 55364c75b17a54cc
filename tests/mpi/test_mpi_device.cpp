// Distributed device views (tessera::mpi_cuda) under mpirun -np 1, 2 and 4: each rank on its
// own GPU where there are enough (rank on a node mod the GPU count otherwise; NCCL's
// cases need one GPU a rank and say so where they skip). Every rank runs every case, with
// CHECKs only (collective: no rank leaves a case early). Fields are random, ghosts start
// as NaN sentinels, extents are not multiples of anything, and every process grid of the
// world's size is tried.
//   - device_exchange::fill writes every ghost cell as the host fill_halos does, bit for
//     bit, through each transport this machine has (the others skip by name);
//   - mpi::iterate on device views, overlapped and not, equals one process's sweeps with
//     the same policy bit for bit (stars and boxes, every boundary kind, odd step counts);
//   - an exchange made for one ghost width fills a wider one (its buffers grow);
//   - temporal blocking across ranks (halos k steps deep, a fused pass over each grown
//     block) agrees with one process's sweeps to rounding, its halos filled at the end;
//   - global reductions over device blocks agree with the host blocks;
//   - point functions (test_mpi_device_point.cu, compiled by nvcc) equal one process;
//   - refusals name the transport or the view.
// Without a GPU the program prints "SKIPPED: no CUDA device" and ctest reports a skip.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>
#include <mpi.h>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <tessera/mpi/mpi.hpp>
#include <tessera/tessera.hpp>

#include "../support/test_support.hpp"
#include "mpi_device_test_support.hpp"

using namespace mpi_test;

namespace {

/// Cells (ghosts included) whose bits differ between two host blocks of one layout.
template <class T, int Rank>
ts::index_t bit_mismatches(const ts::View<T, Rank>& a, const ts::View<T, Rank>& b) {
  ts::index_t bad = 0;
  for_each_point<Rank>(a.extents(), a.ghost(), [&](auto... i) { bad += std::memcmp(&a(i...), &b(i...), sizeof(T)) != 0; });
  return bad;
}

template <class T, int Rank>
void check_fill(const ts::extents<Rank>& global, int g) {
  for (const auto t : transports_to_try())
    for (const auto& bc_all : boundary_cases<Rank>())
      for (const bool with_bc : {true, false})
        for (const auto& dims : process_grids<Rank>()) {
          const tmpi::cartesian_domain<Rank> dom(MPI_COMM_WORLD, global, periodic_axes(bc_all), dims);
          if (thinner_than(dom, g)) continue;
          const std::optional<ts::boundary_conditions<Rank>> bc = with_bc ? std::optional(bc_all) : std::nullopt;
          ts::View<T, Rank> init("init", global, g);
          fill_random(init, 7);
          tmpi::distributed_view<T, Rank> host("host", dom, g);
          for_each_point<Rank>(host.local().extents(), g, [&](auto... i) { host.local()(i...) = std::nan(""); });
          tmpi::scatter_from(init, host);
          tmpi::distributed_view<T, Rank, ts::CudaSpace> dev("dev", dom, g);
          ts::deep_copy(dev.local(), host.local());
          tmpi::fill_halos(host, bc);
          tmpi::device_exchange<T, Rank> ex(dev, t);
          tmpi::fill_halos(dev, bc, ex);
          const auto back = to_host(dev);
          INFO(tmpi::to_string(t), ", ", grid_text(dom), ", ", with_bc ? bc_text(bc_all) : std::string("no bc"));
          CHECK(bit_mismatches(back.local(), host.local()) == 0);
        }
}

TEST_CASE_TEMPLATE("device halos equal the host fill_halos bit for bit, every transport and boundary kind", T, float,
                   double) {
  check_fill<T, 3>(ts::extents<3>{13, 11, 9}, 2);
  check_fill<T, 2>(ts::extents<2>{17, 10}, 1);
}

/// One process's k sweeps with policy P on the whole grid: fill_ghosts, apply, swap.
template <class P, class S, class T>
ts::View<T, 3> reference(const ts::stencil<S, T>& st, const ts::View<T, 3>& init, int steps,
                         const ts::boundary_conditions<3>& bc) {
  auto a = to_device(init, "a");
  ts::View<T, 3, ts::CudaSpace> b("b", init.layout());
  for (int k = 0; k < steps; ++k) {
    ts::fill_ghosts(a, bc);
    ts::apply(P{}, st, a, b);
    std::swap(a, b);
  }
  return to_host(a);
}

template <class P, class S, class T>
void check_iterate(const ts::extents<3>& global, int steps, std::uint64_t seed) {
  constexpr int g = ts::shape_traits<S>::radius;
  auto st = random_stencil<S, T>(seed);
  T sum = 0;
  for (auto& c : st.coeffs) c = c < 0 ? -c : c, sum += c;
  for (auto& c : st.coeffs) c /= sum;  // an averaging step: bounded over the steps
  ts::View<T, 3> init("init", global, g);
  fill_random(init, seed + 1);
  for (const auto& bc : boundary_cases<3>()) {
    const auto ref = reference<P>(st, init, steps, bc);
    for (const auto t : transports_to_try())
      for (const auto& dims : process_grids<3>()) {
        const tmpi::cartesian_domain<3> dom(MPI_COMM_WORLD, global, periodic_axes(bc), dims);
        if (thinner_than(dom, g)) continue;
        tmpi::distributed_view<T, 3> host("host", dom, g);
        tmpi::scatter_from(init, host);
        tmpi::distributed_view<T, 3, ts::CudaSpace> u("u", dom, g), scratch("scratch", u);
        ts::deep_copy(u.local(), host.local());
        tmpi::device_exchange<T, 3> ex(u, t);
        for (const auto mode : {tmpi::overlap::automatic, tmpi::overlap::off}) {
          ts::deep_copy(u.local(), host.local());
          const auto r = tmpi::iterate(P{}, st, u, scratch, steps, bc, ex, mode);
          const bool overlapped = mode == tmpi::overlap::automatic && ex.can_overlap(u);
          INFO(P::name(), " ", ts::shape_name<S>(), ", ", tmpi::to_string(t), ", ", grid_text(dom), ", ", bc_text(bc),
               std::string(overlapped ? ", overlapped" : ", not overlapped"));
          CHECK(block_mismatches(to_host(r), ref, 0) == 0);  // bit for bit
        }
        // some axis split, the last one whole, and blocks with cells beyond 2g of every split
        // face: the step overlaps (a slab, or a block grid such as 1x2x1 or 2x2x1)
        bool split = false, thick = true;
        for (int a = 0; a < 3; ++a)
          if (dom.dims()[a] > 1) split = true, thick = thick && dom.local_extents()[a] > 2 * g;
        CHECK(ex.can_overlap(u) == (split && thick && dom.dims()[2] == 1));
      }
  }
}

TEST_CASE("distributed device iterate equals one process bit for bit, overlapped or not") {
  check_iterate<ts::cuda::naive<>, ts::star<3, 1>, double>(ts::extents<3>{21, 14, 23}, 5, 31);
  check_iterate<ts::cuda::naive<>, ts::box<3, 1>, float>(ts::extents<3>{19, 13, 22}, 3, 32);
  check_iterate<ts::cuda::naive<>, ts::star<3, 2>, float>(ts::extents<3>{26, 12, 17}, 4, 33);
}

TEST_CASE("distributed device iterate with a roofline policy agrees with one process") {
  // vector_streaming and automatic may pick other kernels for the thin outer planes than
  // for the whole block: agreement to rounding, not bits
  const ts::extents<3> global{70, 33, 64};
  auto st = random_stencil<ts::star<3, 1>, float>(41);
  ts::View<float, 3> init("init", global, 1);
  fill_random(init, 42);
  const auto bc = ts::boundary_conditions<3>::uniform(ts::boundary::dirichlet(0.5));
  const auto ref = reference<ts::cuda::naive<>>(st, init, 6, bc);
  const tmpi::cartesian_domain<3> dom(MPI_COMM_WORLD, global);
  tmpi::distributed_view<float, 3> host("host", dom, 1);
  tmpi::scatter_from(init, host);
  tmpi::distributed_view<float, 3, ts::CudaSpace> u("u", dom, 1), scratch("scratch", u);
  for (const auto t : transports_to_try()) {
    ts::deep_copy(u.local(), host.local());
    tmpi::device_exchange<float, 3> ex(u, t);
    const auto r = tmpi::iterate(ts::automatic{}, st, u, scratch, 6, bc, ex);
    const auto back = to_host(r);
    double worst = 0;
    const auto& off = dom.offset();
    for_each_point<3>(back.local().extents(), 0, [&](auto z, auto y, auto x) {
      const double want = ref(z + off[0], y + off[1], x + off[2]), got = back.local()(z, y, x);
      const double e = std::abs(got - want) / (std::abs(want) + 1e-3);
      worst = e > worst || e != e ? e : worst;
    });
    INFO(tmpi::to_string(t), ", ", grid_text(dom));
    CHECK(worst <= 1e-5);
    CHECK(tmpi::norm_max(r) == doctest::Approx(ts::norm_max(ref)).epsilon(1e-5));
  }
}

/// Temporal blocking across ranks on device views: halos 3 r deep, `P` fusing up to its
/// tile's steps; within rounding of one process's sweep-a-step result, in the view a sweep
/// a step leaves it in, its halos filled as the host fill_halos fills them.
template <class P, class S, class T>
void check_fused_across_ranks(const ts::extents<3>& global, int steps, std::uint64_t seed, int expect_k) {
  constexpr int r = ts::shape_traits<S>::radius;
  constexpr int depth = 3;
  const auto st = symmetric_averaging_stencil<S, T>(seed);
  ts::View<T, 3> init("init", global, r);
  fill_random(init, seed + 1);
  int fused_cases = 0;
  for (const auto& bc : boundary_cases<3>()) {
    const auto ref = serial_reference(st, init, steps, bc);
    for (const auto t : transports_to_try())
      for (const auto& dims : process_grids<3>()) {
        const tmpi::cartesian_domain<3> dom(MPI_COMM_WORLD, global, periodic_axes(bc), dims);
        if (thinner_than(dom, depth * r)) continue;
        tmpi::distributed_view<T, 3> host("host", dom, depth * r);
        for_each_point<3>(host.local().extents(), depth * r, [&](auto... i) { host.local()(i...) = T(std::nan("")); });
        tmpi::scatter_from(init, host);  // halos stay NaN: the passes must exchange them
        tmpi::distributed_view<T, 3, ts::CudaSpace> u("u", dom, depth * r), scratch("scratch", u);
        ts::deep_copy(u.local(), host.local());
        ts::deep_copy(scratch.local(), host.local());
        tmpi::device_exchange<T, 3> ex(u, t);
        const int k = tmpi::steps_between_exchanges(P{}, st, u, std::optional(bc));
        fused_cases += k >= 2;
        const auto res = tmpi::iterate(P{}, st, u, scratch, steps, bc, ex);
        INFO(P::name(), " ", ts::shape_name<S>(), ", ", tmpi::to_string(t), ", ", grid_text(dom), ", ", bc_text(bc),
             ", ", k, " steps an exchange");
        if (expect_k > 0) CHECK(k == expect_k);
        CHECK(res.local().data() == (steps % 2 ? scratch : u).local().data());
        const auto back = to_host(res);
        double worst = 0;
        const auto& off = dom.offset();
        for_each_point<3>(back.local().extents(), 0, [&](auto z, auto y, auto x) {
          const double d = std::abs(double(back.local()(z, y, x)) - double(ref(z + off[0], y + off[1], x + off[2])));
          worst = d != d ? 1e300 : std::max(worst, d);
        });
        CHECK(worst <= (sizeof(T) == 4 ? 2e-6 : 1e-13) * std::max(1.0, double(ts::norm_max(ref))));
          tmpi::distributed_view<T, 3> again("again", back);
        ts::deep_copy(again.local(), back.local());
        tmpi::fill_halos(again, bc);
        CHECK(bit_mismatches(back.local(), again.local()) == 0);  // the halos were filled, none NaN
      }
  }
  if (expect_k > 1 && world_size() > 1) CHECK(fused_cases > 0);  // the fused path ran
}

TEST_CASE("temporal blocking across ranks on device views, fp32 7-point: every transport and boundary kind") {
  // temporal_blocking fuses 4 steps of a 7-point star; halos 3 deep allow 3 an exchange
  check_fused_across_ranks<ts::cuda::temporal_blocking<>, ts::star<3, 1>, float>(ts::extents<3>{37, 29, 41}, 7, 51, 3);
}

TEST_CASE("temporal blocking across ranks on device views: fp64, the 27-point box, automatic") {
  check_fused_across_ranks<ts::cuda::temporal_blocking<>, ts::star<3, 1>, double>(ts::extents<3>{26, 19, 33}, 6, 52, 3);
  check_fused_across_ranks<ts::cuda::temporal_blocking<2>, ts::box<3, 1>, float>(ts::extents<3>{23, 27, 30}, 5, 53, 2);
  // automatic fuses where its fusion table says (maybe not at this size): right either way
  check_fused_across_ranks<ts::automatic, ts::star<3, 1>, float>(ts::extents<3>{40, 36, 64}, 8, 54, 0);
}

TEST_CASE("global reductions over device blocks agree with the host blocks") {
  const tmpi::cartesian_domain<3> dom(MPI_COMM_WORLD, ts::extents<3>{23, 17, 31});
  tmpi::distributed_view<double, 3> a("a", dom, 1), b("b", dom, 1);
  ts::View<double, 3> ga("ga", dom.global_extents(), 1), gb("gb", dom.global_extents(), 1);
  fill_random(ga, 11), fill_random(gb, 12);
  tmpi::scatter_from(ga, a), tmpi::scatter_from(gb, b);
  tmpi::distributed_view<double, 3, ts::CudaSpace> da("da", dom, 1), db("db", dom, 1);
  ts::deep_copy(da.local(), a.local()), ts::deep_copy(db.local(), b.local());
  // sums add in another order on the GPU: agreement to rounding; the maximum is exact
  CHECK(tmpi::dot(da, db) == doctest::Approx(tmpi::dot(a, b)).epsilon(1e-12));
  CHECK(tmpi::norm_l2(da) == doctest::Approx(tmpi::norm_l2(a)).epsilon(1e-12));
  CHECK(tmpi::norm_max(da) == tmpi::norm_max(a));
  CHECK(tmpi::norm_max(da) > 0.5);  // random values in [-1, 1] over 12121 points
}

TEST_CASE("device exchanges refuse what they cannot do, by name") {
  const tmpi::cartesian_domain<3> dom(MPI_COMM_WORLD, ts::extents<3>{16, 12, 10});
  tmpi::distributed_view<float, 3, ts::CudaSpace> u("u", dom, 1), wide("wide", dom, 2);
  if (!tmpi::cuda_aware_mpi_available()) {
    const auto msg = message_of<ts::unsupported_error>([&] { tmpi::device_exchange<float, 3> ex(u, tmpi::transport::cuda_aware_mpi); });
    CHECK(msg.find("cuda-aware-mpi") != std::string::npos);
    CHECK(msg.find("device pointers") != std::string::npos);
  }
  if (!tmpi::nccl_available()) {
    const auto msg = message_of<ts::unsupported_error>([&] { tmpi::device_exchange<float, 3> ex(u, tmpi::transport::nccl); });
    CHECK(msg.find("without NCCL") != std::string::npos);
  }
  tmpi::device_exchange<float, 3> ex(u);
  const tmpi::cartesian_domain<3> other(MPI_COMM_WORLD, ts::extents<3>{16, 12, 11});
  tmpi::distributed_view<float, 3, ts::CudaSpace> elsewhere("elsewhere", other, 1);
  const auto msg = message_of<ts::extent_mismatch_error>([&] { tmpi::fill_halos(elsewhere, std::nullopt, ex); });
  CHECK(msg.find("'elsewhere'") != std::string::npos);
  CHECK(msg.find("one device_exchange per cartesian_domain") != std::string::npos);
  // a wider ghost layer than the exchange was made for: its buffers grow, the halos are right
  tmpi::distributed_view<float, 3> host("host", dom, 2);
  ts::View<float, 3> init("init", dom.global_extents(), 2);
  fill_random(init, 9);
  tmpi::scatter_from(init, host);
  ts::deep_copy(wide.local(), host.local());
  const auto bc = ts::boundary_conditions<3>::uniform(ts::boundary::neumann());
  tmpi::fill_halos(host, bc);
  tmpi::fill_halos(wide, bc, ex);
  CHECK(bit_mismatches(to_host(wide).local(), host.local()) == 0);
  for (const auto t : {tmpi::transport::host_staged, tmpi::transport::cuda_aware_mpi, tmpi::transport::nccl})
    CHECK(tmpi::transport_by_name(tmpi::to_string(t)) == t);
  CHECK(!tmpi::transport_by_name("mpi"));
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const auto node = tmpi::placement_on_node();
  ranks_on_this_node = node.ranks;
  if (cudaGetDeviceCount(&gpus) != cudaSuccess) gpus = 0;
  int fewest = gpus;
  MPI_Allreduce(&gpus, &fewest, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (fewest == 0) {
    if (rank == 0) std::printf("SKIPPED: no CUDA device (tessera mpi device suite, %d processes)\n", size);
    MPI_Finalize();
    return 0;
  }
  cudaSetDevice(node.rank % gpus);
  const int worst = run_cases_on_every_rank(argc, argv, "tessera mpi device suite");
  MPI_Finalize();
  return worst;
}
