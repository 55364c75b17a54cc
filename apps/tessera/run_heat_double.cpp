// heat3d in double, every policy and order (see run_heat.hpp).
#include "run_heat.hpp"

template int tessera::app::run_heat3d<double>(const tessera::app::run_options&);
