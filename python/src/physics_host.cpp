// tessera::physics' point functions on host (NumPy) arrays for the Python module:
// host::serial, host::parallel, kokkos::mdrange where the build has Kokkos, automatic.
#include "physics.hpp"

namespace tessera::python {

void physics_host(const std::string& policy, const std::string& kernel, double parameter,
                  const std::vector<const views_in<HostSpace>*>& in, const views_in<HostSpace>& out) {
  physics_named<HostSpace>([](auto&& f) { for_each_host_policy(f); }, policy, kernel, parameter, in, out);
}

}  // namespace tessera::python
