// wave2d in double, every policy (see run_2d.hpp).
#include "run_2d.hpp"

template int tessera::app::run_wave2d<double>(const tessera::app::run_options&);
