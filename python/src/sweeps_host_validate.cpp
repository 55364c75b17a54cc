// The Python module's validate on host (NumPy) arrays (for_each_host_policy, sweeps.hpp).
#include "sweeps.hpp"

namespace tessera::python {

validation_desc validate_host(const std::string& policy, const stencil_desc& st, const views_in<HostSpace>& in,
                              double tolerance) {
  return validate_named<HostSpace>([](auto&& f) { for_each_host_policy(f); }, policy, st, in, tolerance);
}

}  // namespace tessera::python
