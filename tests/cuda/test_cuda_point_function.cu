// Point functions on CUDA views (cuda/detail/point_function_sweep.hpp), on every CUDA policy,
// against host::serial and the Kokkos reference (kokkos::mdrange) on the same inputs (both
// are also checked against direct loops in tests/algorithms/test_point_function.cpp). Compiled by nvcc: the kernels are
// instantiated here, where apply is called, as in a user's .cu file. The tiles, chunks,
// row alignments and each policy's own lowering: test_cuda_point_function_tiles.cu.
#include <tuple>

#include "point_function_checks.hpp"

/// Every listed CUDA strategy (cuda::strategies, default tiles), naive on a 3D block, then
/// cuda::automatic and tessera::automatic: a new strategy is tested here without an edit.
template <class... Strategies>
std::tuple<Strategies..., ts::cuda::naive<16, 4, 4>, ts::cuda::automatic, ts::automatic> point_policies_of(
    ts::type_list<Strategies...>);
using point_policies = decltype(point_policies_of(ts::cuda::strategies{}));

TEST_CASE_TEMPLATE_DEFINE("cuda point functions: physics kernels agree with host::serial and the Kokkos reference", P,
                          physics_kernels) {
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

TEST_CASE_TEMPLATE_DEFINE("cuda point functions: lambdas, several outputs, 1D, stencils", P, lambdas_1d_stencils) {
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
  {  // 1D, reach 2: the strategies that only march need the slowest axis of a 2D or 3D grid
    ts::View<double, 1> u("u", ts::extents<1>{1001}, 2), ref("bilaplacian", ts::extents<1>{1001}, 1);
    fill_random(u, 10);
    const auto bilap = ts::pointwise(ts::reach<2>{}, [] TESSERA_HD(ts::field<double, 1, 2> f) {
      return f(off<-2>) - 4 * f(off<-1>) + 6 * f() - 4 * f(off<1>) + f(off<2>);
    });
    // a strategy with a 1D stencil kernel runs 1D point functions too; the automatic policies
    // choose one that does
    constexpr bool runs_1d = [] {
      if constexpr (requires { P::template has_kernel<ts::star<1, 1>>; }) return P::template has_kernel<ts::star<1, 1>>;
      else return true;
    }();
    if constexpr (runs_1d) {
      check_against_host<P>(bilap, ts::inputs(u), ts::outputs(ref), 1e-13);
    } else {
      const auto du = to_device(u, "u_d");
      ts::View<double, 1, ts::CudaSpace> out("out_d", ts::extents<1>{1001}, 1);
      const auto why = message_of<ts::unsupported_error>([&] { ts::apply(P{}, bilap, ts::inputs(du), ts::outputs(out)); });
      CHECK(why.find(P::name()) != std::string::npos);
      // refused for the missing axis, or first for rows off 16 bytes (pipelined's copies)
      CHECK((why.find("1D") != std::string::npos || why.find("16-byte") != std::string::npos));
      CHECK(why.find("cuda::naive") != std::string::npos);
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

TEST_CASE_TEMPLATE_APPLY(physics_kernels, point_policies);
TEST_CASE_TEMPLATE_APPLY(lambdas_1d_stencils, point_policies);
