// wave2d in float, every policy (see run_2d.hpp).
#include "run_2d.hpp"

template int tessera::app::run_wave2d<float>(const tessera::app::run_options&);
