// Point functions on CUDA views, continued from test_cuda_point_function.cu (its own unit
// so that neither takes a minute to compile): lambdas with several outputs, 1D grids (and
// the marching strategies' refusal there), and a stencil through the point-function path,
// on every CUDA policy, against host::serial and the Kokkos reference.
#include "point_function_checks.hpp"

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

TEST_CASE_TEMPLATE_APPLY(lambdas_1d_stencils, point_policies);
