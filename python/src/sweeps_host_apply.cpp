// The Python module's apply on host (NumPy) arrays, and the names of the host policies:
// host::serial, host::parallel, kokkos::mdrange where the build has Kokkos, and automatic
// (for_each_host_policy, sweeps.hpp). apply, iterate and validate are a translation unit
// each, so the build spreads over the cores.
#include "sweeps.hpp"

namespace tessera::python {

std::vector<std::string> host_policy_names() {
  return policy_names([](auto&& f) { for_each_host_policy(f); });
}

void apply_host(const std::string& policy, const stencil_desc& st, const views_in<HostSpace>& in,
                const views_in<HostSpace>& out) {
  apply_named<HostSpace>([](auto&& f) { for_each_host_policy(f); }, policy, st, in, out,
                         [](const auto& p, const auto& s, const auto& i, const auto& o) { apply(p, s, i, o); });
}

}  // namespace tessera::python
