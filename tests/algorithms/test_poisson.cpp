// Source term and Jacobi on the host policies.
#include <doctest/doctest.h>

#include "../support/poisson_checks.hpp"

namespace ts = tessera;
using namespace ts::test;

TEST_CASE_TEMPLATE("apply_with_source: out = stencil(in) + alpha f on every host policy", P, ts::host::serial,
                   ts::host::parallel, ts::kokkos::mdrange) {
  check_source_term<P, ts::HostSpace, double>();
  check_source_term<P, ts::HostSpace, float>();
}

TEST_CASE_TEMPLATE("Jacobi converges to a manufactured Poisson solution at second order", P, ts::host::parallel,
                   ts::host::serial) {
  check_jacobi_order<P, ts::HostSpace>();
}

TEST_CASE_TEMPLATE("leapfrog keeps the discrete standing wave exactly", P, ts::host::serial, ts::host::parallel,
                   ts::kokkos::mdrange) {
  check_wave_mode<P, ts::HostSpace>();
}
