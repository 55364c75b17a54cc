// Kokkos cross-validation of the host policies: every shape of the matrix x float/double
// x host::serial/host::parallel, each its own test case (and ctest test).
#include "../support/cross_validation.hpp"
#include "../support/shapes_under_test.hpp"

namespace ts = tessera;

#define TESSERA_XVAL(POLICY, T, ...)                                                       \
  TEST_CASE("Kokkos cross-validation: " TESSERA_STR(POLICY) " " TESSERA_STR(__VA_ARGS__) \
            " " #T) {                                                                      \
    ts::test::cross_validate<POLICY, T, __VA_ARGS__>(ts::test::agreement_tolerance<T>());  \
  }

TESSERA_FOR_EACH_SHAPE(TESSERA_XVAL, ts::host::serial, float)
TESSERA_FOR_EACH_SHAPE(TESSERA_XVAL, ts::host::serial, double)
TESSERA_FOR_EACH_SHAPE(TESSERA_XVAL, ts::host::parallel, float)
TESSERA_FOR_EACH_SHAPE(TESSERA_XVAL, ts::host::parallel, double)
