// The Python module's sweeps of host (NumPy) arrays: host::serial, host::parallel,
// kokkos::mdrange where the build has Kokkos, and automatic.
#include "sweeps.hpp"

namespace tessera::python {

std::vector<std::string> host_policy_names() {
  std::vector<std::string> v;
  for_each_host_policy([&](auto p) { v.push_back(decltype(p)::name()); });
  return v;
}

void apply_host(const std::string& policy, const stencil_desc& st, const views_in<HostSpace>& in,
                const views_in<HostSpace>& out) {
  apply_named<HostSpace>([](auto&& f) { for_each_host_policy(f); }, policy, st, in, out,
                         [](const auto& p, const auto& s, const auto& i, const auto& o) { apply(p, s, i, o); });
}

bool iterate_host(const std::string& policy, const stencil_desc& st, const views_in<HostSpace>& u,
                  const views_in<HostSpace>& scratch, int steps, const boundary_desc& b) {
  return iterate_named<HostSpace>([](auto&& f) { for_each_host_policy(f); }, policy, st, u, scratch, steps, b);
}

validation_desc validate_host(const std::string& policy, const stencil_desc& st, const views_in<HostSpace>& in,
                              double tolerance) {
  return validate_named<HostSpace>([](auto&& f) { for_each_host_policy(f); }, policy, st, in, tolerance);
}

}  // namespace tessera::python
