// Point functions on CUDA views (cuda/detail/point_function_sweep.hpp), on every CUDA policy,
// against host::serial and the Kokkos reference (kokkos::mdrange) on the same inputs (both
// are also checked against direct loops in tests/algorithms/test_point_function.cpp). Compiled by nvcc: the kernels are
// instantiated here, where apply is called, as in a user's .cu file. The tiles, chunks,
// row alignments and each policy's own lowering: test_cuda_point_function_tiles.cu; lambdas,
// 1D and stencils as point functions: test_cuda_point_function_lambdas.cu (a unit each, so
// that no unit's compile runs past a minute).
#include "point_function_checks.hpp"

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

TEST_CASE_TEMPLATE_APPLY(physics_kernels, point_policies);
