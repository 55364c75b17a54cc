// Kokkos cross-validation of every CUDA policy: the shape matrix x float/double, on
// awkward extents, a 1-point interior and grids smaller than one tile, against the
// Kokkos reference and host::serial, output NaN-poisoned and ghost sentinels checked.
// Where a strategy cannot serve a shape, apply must throw its plan's reason instead.
#include "../support/cross_validation.hpp"
#include "../support/cuda_support.hpp"
#include "../support/shapes_under_test.hpp"

namespace ts = tessera;

namespace {
template <class Policy, class T, class S>
void cuda_cross_validate() {
  TESSERA_REQUIRE_CUDA_DEVICE();
  const auto e = ts::test::awkward_extents<S::rank>();
  const auto plan = ts::cuda::plan_for<S, T>(Policy{}, e);
  if (!plan.ok()) {
    INFO("refused: ", plan.reason);
    ts::View<T, S::rank, ts::CudaSpace> in("in", e, ts::shape_traits<S>::radius), out("out", in.layout());
    const auto st = ts::test::random_stencil<S, T>(3);
    CHECK_THROWS_WITH_AS(ts::apply(Policy{}, st, in, out), doctest::Contains(plan.reason.c_str()),
                         ts::unsupported_error);
    return;
  }
  ts::test::cross_validate<Policy, T, S>(ts::test::agreement_tolerance<T>());
}
}  // namespace

#define TESSERA_CUDA_XVAL(POLICY, T, ...)                                                  \
  TEST_CASE("Kokkos cross-validation: " TESSERA_STR(POLICY) " " TESSERA_STR(__VA_ARGS__) \
            " " #T) {                                                                      \
    cuda_cross_validate<POLICY, T, __VA_ARGS__>();                                         \
  }

TESSERA_FOR_EACH_SHAPE(TESSERA_CUDA_XVAL, ts::cuda::naive<>, float)
TESSERA_FOR_EACH_SHAPE(TESSERA_CUDA_XVAL, ts::cuda::naive<>, double)
TESSERA_FOR_EACH_SHAPE(TESSERA_CUDA_XVAL, ts::cuda::tiled<>, float)
TESSERA_FOR_EACH_SHAPE(TESSERA_CUDA_XVAL, ts::cuda::tiled<>, double)
TESSERA_FOR_EACH_SHAPE(TESSERA_CUDA_XVAL, ts::cuda::coarsened<>, float)
TESSERA_FOR_EACH_SHAPE(TESSERA_CUDA_XVAL, ts::cuda::coarsened<>, double)
TESSERA_FOR_EACH_SHAPE(TESSERA_CUDA_XVAL, ts::cuda::register_tiled<>, float)
TESSERA_FOR_EACH_SHAPE(TESSERA_CUDA_XVAL, ts::cuda::register_tiled<>, double)
TESSERA_FOR_EACH_SHAPE(TESSERA_CUDA_XVAL, ts::cuda::streaming<>, float)
TESSERA_FOR_EACH_SHAPE(TESSERA_CUDA_XVAL, ts::cuda::streaming<>, double)
TESSERA_FOR_EACH_SHAPE(TESSERA_CUDA_XVAL, ts::cuda::shared_streaming<>, float)
TESSERA_FOR_EACH_SHAPE(TESSERA_CUDA_XVAL, ts::cuda::shared_streaming<>, double)
TESSERA_FOR_EACH_SHAPE(TESSERA_CUDA_XVAL, ts::cuda::pipelined<>, float)
TESSERA_FOR_EACH_SHAPE(TESSERA_CUDA_XVAL, ts::cuda::pipelined<>, double)
TESSERA_FOR_EACH_SHAPE(TESSERA_CUDA_XVAL, ts::cuda::vector_streaming<>, float)
TESSERA_FOR_EACH_SHAPE(TESSERA_CUDA_XVAL, ts::cuda::vector_streaming<>, double)
TESSERA_FOR_EACH_SHAPE(TESSERA_CUDA_XVAL, ts::cuda::automatic, float)
TESSERA_FOR_EACH_SHAPE(TESSERA_CUDA_XVAL, ts::cuda::automatic, double)
