// poisson2d and poisson3d, float and double: the runs. Their solves are compiled elsewhere
// (run_poisson.hpp says where); this unit sees their declaration only.
#include "run_poisson.hpp"

template int tessera::app::run_poisson<float, 2>(const tessera::app::run_options&);
template int tessera::app::run_poisson<float, 3>(const tessera::app::run_options&);
template int tessera::app::run_poisson<double, 2>(const tessera::app::run_options&);
template int tessera::app::run_poisson<double, 3>(const tessera::app::run_options&);
