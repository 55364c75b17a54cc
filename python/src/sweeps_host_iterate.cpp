// The Python module's iterate on host (NumPy) arrays (for_each_host_policy, sweeps.hpp).
#include "sweeps.hpp"

namespace tessera::python {

bool iterate_host(const std::string& policy, const stencil_desc& st, const views_in<HostSpace>& u,
                  const views_in<HostSpace>& scratch, int steps, const boundary_desc& b) {
  return iterate_named<HostSpace>([](auto&& f) { for_each_host_policy(f); }, policy, st, u, scratch, steps, b);
}

}  // namespace tessera::python
