// seismic3d in double (run_seismic.hpp); compiled by nvcc in CUDA builds.
#include "run_seismic.hpp"
template int tessera::app::run_seismic3d<double>(const tessera::app::run_options&);
#if TESSERA_ENABLE_CUDA
void tessera::app::seismic_device_step(const std::string& policy, const seismic_step<double>& step,
                                       const View<double, 3, CudaSpace>& u_prev, const View<double, 3, CudaSpace>& u,
                                       const View<double, 3, CudaSpace>& c2, const View<double, 3, CudaSpace>& s,
                                       const View<double, 3, CudaSpace>& w, const View<double, 3, CudaSpace>& u_next) {
  seismic_device_step_on(policy, step, u_prev, u, c2, s, w, u_next);
}
#endif
