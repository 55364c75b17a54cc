// A strategy that is not in the library (toy_strategy.hpp) compiled the way the library
// compiles its own: its stencil kernels instantiated here for the shapes the sweep
// semantics suite uses (test_cuda_policy_semantics.cpp runs that suite on it, joined to
// the list), its point functions through the library's generic dispatch. docs/design.md,
// "Adding a strategy", is the walkthrough this keeps true.
#include "tessera/cuda/kernel_entry.cuh"
#include "toy_strategy.hpp"

TESSERA_CUDA_INSTANTIATE(tessera::cuda::toy_rows<>, float, tessera::star<3, 1>)
TESSERA_CUDA_INSTANTIATE(tessera::cuda::toy_rows<>, double, tessera::star<3, 1>)
TESSERA_CUDA_INSTANTIATE(tessera::cuda::toy_rows<>, float, tessera::star<3, 2>)
TESSERA_CUDA_INSTANTIATE(tessera::cuda::toy_rows<>, double, tessera::star<3, 2>)

#include "point_function_checks.hpp"

TEST_CASE("a strategy outside the library runs stencils and point functions through the generic adapters") {
  TESSERA_REQUIRE_CUDA_DEVICE();
  using toy = ts::cuda::toy_rows<>;
  {  // a stencil: the plan is the toy's, its kernel ran, the result is host::serial's
    const ts::extents<3> n{7, 11, 300};  // 300: not a multiple of the 128-thread block
    ts::View<float, 3> in_h("in", n, 2), out_h("out", n, 2), ref("ref", n, 2);
    fill_random(in_h, 31);
    poison(out_h);
    const auto st = random_stencil<ts::star<3, 2>, float>(32);
    auto in = to_device(in_h, "in_d");
    auto out = to_device(out_h, "out_d");
    ts::apply(toy{}, st, in, out);
    CHECK(ts::cuda::last_launch().plan.strategy == "toy_rows");
    CHECK(ts::cuda::last_launch().grid[0] == 3);
    CHECK(ts::cuda::last_launch().grid[1] == 11);
    ts::apply(ts::host::serial{}, st, in_h, ref);
    const auto got = to_host(out);
    CHECK(ts::compare(got, ref).nonfinite == 0);
    CHECK(ts::compare(got, ref).max_abs_error <= agreement_tolerance<float>() * ts::sweep_scale(st, in_h));
    CHECK(ghosts_changed(got) == 0);
  }
  {  // a point function on the mainloop the toy names, against host::serial and Kokkos
    const ts::extents<3> n{9, 13, 70};
    ts::View<double, 3> u("u", n, 1), k("k", n, 1), r("div_k_grad", n, 1);
    fill_random(u, 33);
    fill_random(k, 34);
    check_against_host<toy>(ts::physics::div_k_grad<double>{10.0}, ts::inputs(u, k), ts::outputs(r), 1e-12);
    CHECK(ts::cuda::last_launch().plan.strategy == "toy_rows");
    CHECK(ts::cuda::last_launch().plan.chunk == 4);
  }
  {  // its refusal names the toy: the marching mainloop needs a slowest axis
    ts::View<double, 1, ts::CudaSpace> u("u1", ts::extents<1>{100}, 1), out("o1", ts::extents<1>{100}, 0);
    const auto bilap = ts::pointwise(ts::reach<1>{}, [] TESSERA_HD(ts::field<double, 1, 1> f) {
      return f(off<-1>) - 2 * f() + f(off<1>);
    });
    const auto why = message_of<ts::unsupported_error>([&] { ts::apply(toy{}, bilap, ts::inputs(u), ts::outputs(out)); });
    CHECK(why.find("cuda:toy-rows") != std::string::npos);
    CHECK(why.find("toy_rows marches") != std::string::npos);
  }
}
