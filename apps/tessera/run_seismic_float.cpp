// seismic3d in float (run_seismic.hpp); compiled by nvcc in CUDA builds.
#include "run_seismic.hpp"
template int tessera::app::run_seismic3d<float>(const tessera::app::run_options&);
#ifdef TESSERA_MPI_DEVICE
template struct tessera::app::seismic_device<float>;
#endif
