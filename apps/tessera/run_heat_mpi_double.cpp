// heat3d in double under mpirun, every policy and order (see run_heat_mpi.hpp).
#include "run_heat_mpi.hpp"

template int tessera::app::run_heat3d_mpi<double>(const tessera::app::run_options&);
