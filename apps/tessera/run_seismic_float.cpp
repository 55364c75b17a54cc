// seismic3d in float (run_seismic.hpp); compiled by nvcc in CUDA builds.
#include "run_seismic.hpp"
template int tessera::app::run_seismic3d<float>(const tessera::app::run_options&);
#if TESSERA_ENABLE_CUDA
void tessera::app::seismic_device_step(const std::string& policy, const seismic_step<float>& step,
                                       const View<float, 3, CudaSpace>& u_prev, const View<float, 3, CudaSpace>& u,
                                       const View<float, 3, CudaSpace>& c2, const View<float, 3, CudaSpace>& s,
                                       const View<float, 3, CudaSpace>& w, const View<float, 3, CudaSpace>& u_next) {
  seismic_device_step_on(policy, step, u_prev, u, c2, s, w, u_next);
}
#endif
