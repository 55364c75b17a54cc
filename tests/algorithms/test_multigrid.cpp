// Multigrid and CG on the host policies and the Kokkos reference (tests/support/multigrid_checks.hpp).
#include <doctest/doctest.h>

#include <tessera/kokkos/mdrange.hpp>
#include <tessera/kokkos/point_function.hpp>

#include "../support/multigrid_checks.hpp"

namespace ts = tessera;
using namespace ts::test;

TEST_CASE_TEMPLATE("multigrid V(2,2): at most 0.1 per cycle, independent of the grid, 2D", P, ts::host::parallel,
                   ts::host::serial) {
  check_multigrid_factor<P, ts::HostSpace, 2>({31, 63, 127});
}

TEST_CASE("multigrid V(2,2): at most 0.1 per cycle, independent of the grid, 3D") {
  check_multigrid_factor<ts::host::parallel, ts::HostSpace, 3>({15, 31, 63});
}

TEST_CASE("multigrid: discretisation error O(h^2) in 2D and 3D") {
  check_multigrid_order<ts::host::parallel, ts::HostSpace, 2>({31, 63, 127});
  check_multigrid_order<ts::host::parallel, ts::HostSpace, 3>({15, 31});
}

TEST_CASE_TEMPLATE("multigrid: every boundary kind, singular ones included, gives back the discrete solution", P,
                   ts::host::parallel, ts::kokkos::mdrange) {
  check_multigrid_boundaries<P, ts::HostSpace>();
}

TEST_CASE("multigrid: awkward sizes (prime, even, long) give back the discrete solution") {
  check_multigrid_awkward_sizes<ts::host::parallel, ts::HostSpace>();
}

TEST_CASE("multigrid: every smoother with V, W and F cycles, with and without FMG") {
  check_multigrid_smoothers_and_cycles<ts::host::parallel, ts::HostSpace>();
}

TEST_CASE("multigrid: one FMG pass reaches the discretisation error") {
  check_full_multigrid_reaches_discretisation_error<ts::host::parallel, ts::HostSpace>();
}

TEST_CASE("multigrid: float stops at its floor, honestly, at the discretisation error") {
  check_multigrid_float_floor<ts::host::parallel, ts::HostSpace>();
}

TEST_CASE("multigrid: variable k with a jump of 1000 (PCG and V-cycles)") {
  check_variable_coefficient_jump<ts::host::parallel, ts::HostSpace, 2>(64);
  check_variable_coefficient_jump<ts::host::parallel, ts::HostSpace, 3>(24);
}

TEST_CASE_TEMPLATE("cg: plain and multigrid-preconditioned, with a Helmholtz shift, cg_solver reused", P,
                   ts::host::parallel, ts::kokkos::mdrange) {
  check_cg<P, ts::HostSpace>();
}

TEST_CASE_TEMPLATE("multigrid: bad input refused by name (grid, operator, compatibility, NaN, options)", P,
                   ts::host::parallel, ts::kokkos::mdrange) {
  check_multigrid_refuses_bad_input<P, ts::HostSpace>();
}

TEST_CASE("multigrid: restriction and prolongation exact on linear fields, walls between points") {
  check_grid_transfers<ts::HostSpace>();
}

TEST_CASE_TEMPLATE("multigrid: one cycle through the policy equals host::serial's, component by component", P,
                   ts::host::parallel, ts::kokkos::mdrange) {
  check_multigrid_matches_serial<P, ts::HostSpace>();
}

TEST_CASE("cg: preconditioned by a symmetric V-cycle, converges across a jump of 1000 with f = 1 on an even grid") {
  check_jump_with_constant_source<ts::host::parallel, ts::HostSpace>(32);
}
