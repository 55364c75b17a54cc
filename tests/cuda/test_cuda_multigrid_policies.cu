// Multigrid on CUDA views, continued from test_cuda_multigrid.cu: one cycle on the GPU, on
// each of several policies (their point-function kernels instantiated here), equals
// host::serial's.
#include <doctest/doctest.h>

#include "../support/cuda_support.hpp"
#include "../support/multigrid_checks.hpp"

namespace ts = tessera;
using namespace ts::test;

TEST_CASE_TEMPLATE("cuda multigrid: one cycle on the GPU equals host::serial's, every smoother, constant and variable k",
                   P, ts::cuda::naive<>, ts::cuda::tiled<>, ts::cuda::streaming<>, ts::cuda::automatic) {
  TESSERA_REQUIRE_CUDA_DEVICE();
  check_multigrid_matches_serial<P, ts::CudaSpace>();
}
