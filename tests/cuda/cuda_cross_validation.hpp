#pragma once
// Kokkos cross-validation of every CUDA policy: the shape matrix x float/double, on
// awkward extents, a 1-point interior and grids smaller than one tile, against the
// Kokkos reference and host::serial, output NaN-poisoned and ghost sentinels checked.
// Where a strategy cannot serve a shape, apply must throw its plan's reason instead.
// The matrix is spread over a few translation units (xval_*.cpp), a family of
// strategies each, so that the suite compiles on several cores.
#include "../support/cross_validation.hpp"
#include "../support/cuda_support.hpp"
#include "../support/shapes_under_test.hpp"

namespace tessera::test {
template <class Policy, class T, class S>
void cuda_cross_validate() {
  TESSERA_REQUIRE_CUDA_DEVICE();
  const auto e = tessera::test::awkward_extents<S::rank>();
  const auto plan = tessera::cuda::plan_for<S, T>(Policy{}, e);
  if (!plan.ok()) {
    INFO("refused: ", plan.reason);
    tessera::View<T, S::rank, tessera::CudaSpace> in("in", e, tessera::shape_traits<S>::radius), out("out", in.layout());
    const auto st = tessera::test::random_stencil<S, T>(3);
    CHECK_THROWS_WITH_AS(tessera::apply(Policy{}, st, in, out), doctest::Contains(plan.reason.c_str()),
                         tessera::unsupported_error);
    return;
  }
  tessera::test::cross_validate<Policy, T, S>(tessera::test::agreement_tolerance<T>());
}
}  // namespace tessera::test

#define TESSERA_CUDA_XVAL(POLICY, T, ...)                                                  \
  TEST_CASE("Kokkos cross-validation: " TESSERA_STR(POLICY) " " TESSERA_STR(__VA_ARGS__) \
            " " #T) {                                                                      \
    tessera::test::cuda_cross_validate<POLICY, T, __VA_ARGS__>();                          \
  }

