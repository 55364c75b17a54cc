// Point functions on CUDA views (cuda/point_function_sweep.hpp), against host::serial on
// the same inputs (host::serial is checked against the Kokkos reference and direct loops
// in tests/algorithms/test_point_function.cpp). Compiled by nvcc: the kernels are
// instantiated here, where apply is called, as in a user's .cu file.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <type_traits>

#include "../support/cuda_support.hpp"
#include "../support/test_support.hpp"

namespace ts = tessera;
using namespace ts::test;
using ts::off;

namespace {

/// fn over host copies of `in` with host::serial, and over device copies with policy P;
/// the device outputs start poisoned (NaN interior, sentinel ghosts).
template <class P, class F, class T, int Rank, std::size_t NI, std::size_t NO>
void check_against_host(const F& fn, const ts::input_fields<T, Rank, ts::HostSpace, NI>& in,
                        const ts::output_fields<T, Rank, ts::HostSpace, NO>& ref, double tol) {
  ts::apply(ts::host::serial{}, fn, in, ref);
  ts::input_fields<T, Rank, ts::CudaSpace, NI> din;
  for (std::size_t i = 0; i < NI; ++i) din.views[i] = to_device(in[i], in[i].label() + "_d");
  ts::output_fields<T, Rank, ts::CudaSpace, NO> dout;
  for (std::size_t j = 0; j < NO; ++j) {
    ts::View<T, Rank> poisoned("poisoned", ref[j].layout());
    poison(poisoned);
    dout.views[j] = to_device(poisoned, ref[j].label() + "_d");
  }
  ts::apply(P{}, fn, din, dout);
  for (std::size_t j = 0; j < NO; ++j) {
    const auto got = to_host(dout.views[j]);
    INFO(P::name());
    INFO(ref[j].label());
    CHECK(max_relative_error(got, ref[j]) <= tol);
    CHECK(ghosts_changed(got) == 0);
  }
}

}  // namespace

TEST_CASE_TEMPLATE("cuda point functions: physics kernels agree with host::serial", P, ts::cuda::naive<>,
                   ts::cuda::naive<16, 4, 4>, ts::cuda::streaming<>, ts::cuda::vector_streaming<>,
                   ts::cuda::pipelined<>, ts::cuda::automatic, ts::automatic) {
  TESSERA_REQUIRE_CUDA_DEVICE();
  {  // div(k grad u), two fields, double, awkward extents
    const ts::extents<3> n{37, 29, 53};
    ts::View<double, 3> u("u", n, 1), k("k", n, 1), ref("div_k_grad", n, 1);
    fill_random(u, 1);
    fill_random(k, 2);
    check_against_host<P>(ts::physics::div_k_grad<double>{100.0}, ts::inputs(u, k), ts::outputs(ref), 1e-12);
  }
  {  // acoustic step, three fields, ghost widths 0 / 4 / 0
    const ts::extents<3> n{19, 23, 70};
    ts::View<float, 3> up("u_prev", n, 0), u("u", n, 4), c2("c2", n, 0), ref("acoustic", n, 2);
    fill_random(up, 3);
    fill_random(u, 4);
    fill_random(c2, 5);
    check_against_host<P>(ts::physics::acoustic_step<float>{0.04f}, ts::inputs(up, u, c2), ts::outputs(ref), 1e-5);
  }
  {  // 2D upwind advection
    const ts::extents<2> n{129, 67};
    ts::View<double, 2> q("q", n, 1), vy("vy", n, 0), vx("vx", n, 0), ref("advected", n, 1);
    fill_random(q, 6);
    fill_random(vy, 7);
    fill_random(vx, 8);
    check_against_host<P>(ts::physics::upwind_advection<double>{0.3}, ts::inputs(q, vy, vx), ts::outputs(ref),
                          1e-13);
  }
}

TEST_CASE_TEMPLATE("cuda point functions: lambdas, several outputs, 1D, stencils", P, ts::cuda::naive<>,
                   ts::cuda::streaming<>, ts::cuda::vector_streaming<>, ts::cuda::pipelined<>, ts::cuda::automatic,
                   ts::automatic) {
  TESSERA_REQUIRE_CUDA_DEVICE();
  {  // a TESSERA_HD lambda with two outputs
    const ts::extents<2> n{45, 300};
    ts::View<float, 2> u("u", n, 1), gy("gy", n, 1), gx("gx", n, 0);
    fill_random(u, 9);
    const auto gradient = ts::pointwise(ts::reach<1>{}, [] TESSERA_HD(ts::field<float, 2, 1> f) {
      return ts::array<float, 2>{{0.5f * (f(off<1, 0>) - f(off<-1, 0>)), 0.5f * (f(off<0, 1>) - f(off<0, -1>))}};
    });
    check_against_host<P>(gradient, ts::inputs(u), ts::outputs(gy, gx), 1e-6);
  }
  {  // 1D, reach 2: pipelined and the streaming kinds march along the slowest axis of 2D and 3D grids
    ts::View<double, 1> u("u", ts::extents<1>{1001}, 2), ref("bilaplacian", ts::extents<1>{1001}, 1);
    fill_random(u, 10);
    const auto bilap = ts::pointwise(ts::reach<2>{}, [] TESSERA_HD(ts::field<double, 1, 2> f) {
      return f(off<-2>) - 4 * f(off<-1>) + 6 * f() - 4 * f(off<1>) + f(off<2>);
    });
    if constexpr (std::is_same_v<P, ts::cuda::streaming<>> || std::is_same_v<P, ts::cuda::vector_streaming<>>) {
      const auto du = to_device(u, "u_d");
      ts::View<double, 1, ts::CudaSpace> out("out_d", ts::extents<1>{1001}, 1);
      const auto why = message_of<ts::unsupported_error>([&] { ts::apply(P{}, bilap, ts::inputs(du), ts::outputs(out)); });
      CHECK(why.find(P::name()) != std::string::npos);
      CHECK(why.find("1D") != std::string::npos);
      CHECK(why.find("cuda::naive") != std::string::npos);
    } else if constexpr (!std::is_same_v<P, ts::cuda::pipelined<>>) {
      check_against_host<P>(bilap, ts::inputs(u), ts::outputs(ref), 1e-13);
    }
  }
  {  // a constant-coefficient stencil through the point-function path
    const ts::extents<3> n{17, 33, 65};
    ts::View<float, 3> u("u", n, 2), ref("star3d2", n, 2);
    fill_random(u, 11);
    const auto st = random_stencil<ts::star<3, 2>, float>(12);
    check_against_host<P>(ts::as_point_function(st), ts::inputs(u), ts::outputs(ref), 1e-5);
  }
}

namespace {
/// Fields of different radii (0, 2, 1) and ghost widths wider than the radii: the
/// pipelined kernel's copy schedule runs each field's planes at its own lead, and the
/// streaming kernel prefetches each field's plane beyond its own reach.
struct mixed_reach {
  using reach_type = ts::reach<0, 2, 1>;
  template <class A, class B, class C>
  TESSERA_HD float operator()(const A& a, const B& b, const C& c) const {
    return a() * (b(off<2, 0, 0>) - b(off<-2, 0, 0>) + b(off<0, 2, -2>) - b(off<0, -2, 2>) + 0.5f * b(off<-1, 1, 1>)) +
           c(off<1, 1, 1>) * c(off<-1, -1, -1>) - c(off<0, -1, 1>) + b();
  }
};
}  // namespace

TEST_CASE_TEMPLATE("cuda point functions: marching tiles, chunks and reaches agree with host::serial", P,
                   ts::cuda::pipelined<>, ts::cuda::pipelined<64, 4, 1, 1>, ts::cuda::pipelined<32, 8, 0, 3, 3>,
                   ts::cuda::pipelined<0, 0, 0, 0, 1>, ts::cuda::streaming<>, ts::cuda::streaming<32, 8, 3>,
                   ts::cuda::streaming<16, 2, 1>, ts::cuda::streaming<128, 1, 64>, ts::cuda::vector_streaming<>,
                   ts::cuda::vector_streaming<1, 3>, ts::cuda::vector_streaming<8, 1>) {
  TESSERA_REQUIRE_CUDA_DEVICE();
  // extents not multiples of the tiles; 5 planes: fewer than one chunk of most tiles
  for (const auto& n : {ts::extents<3>{13, 21, 45}, ts::extents<3>{5, 3, 7}, ts::extents<3>{70, 17, 33}}) {
    ts::View<float, 3> a("a", n, 0), b("b", n, 3), c("c", n, 1), ref("mixed", n, 1);
    fill_random(a, 21);
    fill_random(b, 22);
    fill_random(c, 23);
    INFO(n.to_string());
    check_against_host<P>(mixed_reach{}, ts::inputs(a, b, c), ts::outputs(ref), 1e-5);
  }
  {  // 2D, a field of radius 3 and one of radius 1, width not a multiple of the tile
    const ts::extents<2> n{301, 517};
    ts::View<float, 2> u("u", n, 3), v("v", n, 2), ref("r", n, 0);
    fill_random(u, 24);
    fill_random(v, 25);
    const auto fn = ts::pointwise(ts::reach<3, 1>{}, [] TESSERA_HD(ts::field<float, 2, 3> f, ts::field<float, 2, 1> g) {
      return f(off<3, 0>) - f(off<0, -3>) + 2.0f * f(off<-2, 1>) - g(off<1, -1>) * g(off<-1, 0>) + f();
    });
    check_against_host<P>(fn, ts::inputs(u, v), ts::outputs(ref), 1e-5);
  }
}

TEST_CASE("cuda point functions: pipelined refuses rows off 16 bytes by name, vector_streaming runs them, automatic "
          "runs streaming") {
  TESSERA_REQUIRE_CUDA_DEVICE();
  const ts::extents<3> n{9, 10, 11};
  const auto fn = ts::physics::div_k_grad<double>{10.0};
  ts::View<double, 3> k_h("k", n, 1);
  fill_random(k_h, 32);
  const auto k = to_device(k_h, "k_d");
  for (const int row_alignment : {1, 16}) {  // elements: 8 bytes (refused by pipelined), 128 bytes
    INFO("row alignment " << row_alignment);
    ts::View<double, 3> u_h("u", ts::layout<3>(n, 1, row_alignment)), ref("div_k_grad", n, 1);
    fill_random(u_h, 31);
    ts::apply(ts::host::serial{}, fn, ts::inputs(u_h, k_h), ts::outputs(ref));
    const auto u = to_device(u_h, "u_d");
    ts::View<double, 3> poisoned("out", ref.layout());
    poison(poisoned);
    const auto out = to_device(poisoned, "out_d");
    const bool aligned = row_alignment == 16;
    const auto why = message_of<ts::unsupported_error>(
        [&] { ts::apply(ts::cuda::pipelined<>{}, fn, ts::inputs(u, k), ts::outputs(out)); });
    if (aligned) {
      CHECK(why == "(no exception)");
      CHECK(max_relative_error(to_host(out), ref) <= 1e-12);
      poison(poisoned);
      ts::deep_copy(out, poisoned);
    } else {
      CHECK(why.find("cuda:pipelined") != std::string::npos);
      CHECK(why.find("u_d") != std::string::npos);
      CHECK(why.find("cuda::naive") != std::string::npos);
    }
    // vector_streaming reads and writes point by point (a lane's columns 32 apart): any row alignment
    ts::View<double, 3> odd_out("out_odd_rows", ts::layout<3>(n, 1, row_alignment));
    poison(odd_out);
    const auto odd_rows = to_device(odd_out, "out_odd_rows_d");
    ts::apply(ts::cuda::vector_streaming<>{}, fn, ts::inputs(u, k), ts::outputs(odd_rows));
    CHECK(ts::cuda::last_launch().plan.strategy == "vector_streaming");
    CHECK(max_relative_error(to_host(odd_rows), ref) <= 1e-12);
    CHECK(ghosts_changed(to_host(odd_rows)) == 0);
    ts::apply(ts::cuda::automatic{}, fn, ts::inputs(u, k), ts::outputs(out));
    // streaming: the fastest on every point function (perf/RESULTS.md run 16); rows of 256 bytes
    CHECK(ts::cuda::last_launch().plan.strategy == "streaming");
    CHECK(ts::cuda::last_launch().block[0] == 32);
    CHECK(ts::cuda::last_launch().plan.chunk == 4);
    const auto got = to_host(out);
    CHECK(max_relative_error(got, ref) <= 1e-12);
    CHECK(ghosts_changed(got) == 0);
  }
}

TEST_CASE("cuda point functions: automatic runs naive in 1D, streaming's defaults in 2D") {
  TESSERA_REQUIRE_CUDA_DEVICE();
  const auto bilap = ts::pointwise(ts::reach<2>{}, [] TESSERA_HD(ts::field<float, 1, 2> f) {
    return f(off<-2>) - 4 * f(off<-1>) + 6 * f() - 4 * f(off<1>) + f(off<2>);
  });
  ts::View<float, 1> u1("u", ts::extents<1>{777}, 2), ref1("r", ts::extents<1>{777}, 0);
  fill_random(u1, 41);
  check_against_host<ts::cuda::automatic>(bilap, ts::inputs(u1), ts::outputs(ref1), 1e-5);
  CHECK(ts::cuda::last_launch().plan.strategy == "naive");
  const ts::extents<2> n{1000, 301};  // rows not a multiple of the chunk (8)
  ts::View<float, 2> q("q", n, 1), vy("vy", n, 0), vx("vx", n, 0), ref("advected", n, 1);
  fill_random(q, 42);
  fill_random(vy, 43);
  fill_random(vx, 44);
  check_against_host<ts::cuda::automatic>(ts::physics::upwind_advection<float>{0.3f}, ts::inputs(q, vy, vx),
                                          ts::outputs(ref), 1e-5);
  const auto& launch = ts::cuda::last_launch();
  CHECK(launch.plan.strategy == "streaming");
  CHECK(launch.block[0] == 256);
  CHECK(launch.block[1] == 1);
  CHECK(launch.grid[1] == (1000 + 7) / 8);
}
