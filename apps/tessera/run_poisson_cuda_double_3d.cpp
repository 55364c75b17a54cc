// poisson3d in double: the CUDA policies' solves (every listed strategy, cuda:automatic and
// automatic on the device), for the runs in run_poisson.cpp. Multigrid's sweeps are point
// functions, whose kernels are instantiated here: nvcc compiles this unit (CUDA builds only).
#include "run_poisson_solve.hpp"

namespace tessera::app {
std::vector<poisson_solve_fn<double, 3>> poisson_cuda_solves_double_3d =
    poisson_solves<CudaSpace, double, 3>([](auto f) { for_each_cuda_policy(f); });
}  // namespace tessera::app
