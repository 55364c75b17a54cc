// The Python module's validate on device arrays (sweeps_cuda_policies.hpp).
#include "sweeps_cuda_policies.hpp"

namespace tessera::python {

validation_desc validate_cuda(const std::string& policy, const stencil_desc& st, const views_in<CudaSpace>& in,
                              double tolerance) {
  return validate_named<CudaSpace>([](auto&& f) { for_each_device_policy(f); }, policy, st, in, tolerance);
}

}  // namespace tessera::python
