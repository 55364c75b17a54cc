// Multigrid and CG on CUDA views: every level's sweeps through a CUDA strategy (point-function
// kernels instantiated here, as in a user's .cu file), the transfers and the walls between grid
// points through the device kernels (backends/cuda/src/grid_transfer.cu). The bodies are
// tests/support/multigrid_checks.hpp's, which the host suite runs too; each compares with an
// exactly known discrete solution. One cycle on each policy against host::serial's:
// test_cuda_multigrid_policies.cu; the fused kernels and the coarse levels' graph:
// test_cuda_multigrid_kernels.cu (units of their own, so that none takes a minute to compile).
#include <doctest/doctest.h>

#include "../support/cuda_support.hpp"
#include "../support/multigrid_checks.hpp"

namespace ts = tessera;
using namespace ts::test;

TEST_CASE("cuda multigrid: V(2,2) at most 0.1 per cycle, independent of the grid, 2D and 3D") {
  TESSERA_REQUIRE_CUDA_DEVICE();
  check_multigrid_factor<ts::cuda::automatic, ts::CudaSpace, 2>({63, 127, 255});
  check_multigrid_factor<ts::cuda::automatic, ts::CudaSpace, 3>({31, 63, 127});
}

TEST_CASE("cuda multigrid: every boundary kind, awkward sizes, smoothers and cycles give back the discrete solution") {
  TESSERA_REQUIRE_CUDA_DEVICE();
  check_multigrid_boundaries<ts::cuda::automatic, ts::CudaSpace>();
  check_multigrid_awkward_sizes<ts::cuda::automatic, ts::CudaSpace>();
  check_multigrid_smoothers_and_cycles<ts::cuda::automatic, ts::CudaSpace>();
}

TEST_CASE("cuda multigrid: transfers and walls on the device, exact on linear fields") {
  TESSERA_REQUIRE_CUDA_DEVICE();
  check_grid_transfers<ts::CudaSpace>();
}

TEST_CASE("cuda multigrid: FMG to the discretisation error, float at its floor, second order") {
  TESSERA_REQUIRE_CUDA_DEVICE();
  check_full_multigrid_reaches_discretisation_error<ts::cuda::automatic, ts::CudaSpace>();
  check_multigrid_float_floor<ts::cuda::automatic, ts::CudaSpace>();
  check_multigrid_order<ts::cuda::automatic, ts::CudaSpace, 3>({31, 63});
}

TEST_CASE("cuda multigrid: variable k with a jump of 1000, PCG and V-cycles, and cg with a Helmholtz shift") {
  TESSERA_REQUIRE_CUDA_DEVICE();
  check_variable_coefficient_jump<ts::cuda::automatic, ts::CudaSpace, 3>(64);
  check_cg<ts::cuda::automatic, ts::CudaSpace>();
  check_jump_with_constant_source<ts::cuda::automatic, ts::CudaSpace>(64);
}

TEST_CASE("cuda multigrid: bad input refused by name") {
  TESSERA_REQUIRE_CUDA_DEVICE();
  check_multigrid_refuses_bad_input<ts::cuda::automatic, ts::CudaSpace>();
}
