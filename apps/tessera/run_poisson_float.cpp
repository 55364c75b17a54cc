// poisson2d and poisson3d in float, every policy (see run_poisson.hpp). Multigrid's sweeps
// are point functions, whose CUDA kernels are instantiated here: nvcc compiles this unit in
// CUDA builds.
#include "run_poisson.hpp"

template int tessera::app::run_poisson<float, 2>(const tessera::app::run_options&);
template int tessera::app::run_poisson<float, 3>(const tessera::app::run_options&);
