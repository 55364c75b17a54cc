// poisson2d in float, every policy (see run_poisson.hpp). Multigrid's sweeps are point
// functions, whose CUDA kernels are instantiated here: nvcc compiles this unit in CUDA
// builds. One unit per precision and rank, so that none takes long to compile alone.
#include "run_poisson.hpp"

template int tessera::app::run_poisson<float, 2>(const tessera::app::run_options&);
