// The Python module's iterate on device arrays with the listed CUDA strategies before the
// cut (sweeps_cuda_policies.hpp); sweeps_cuda_iterate.cpp holds the rest.
#include "sweeps_cuda_policies.hpp"

namespace tessera::python {

std::optional<bool> iterate_cuda_before_cut(const std::string& policy, const stencil_desc& st,
                                            const views_in<CudaSpace>& u, const views_in<CudaSpace>& scratch,
                                            int steps, const boundary_desc& b) {
  const std::string base = parse_policy(policy).base;
  bool named = false;
  for_each_device_step_policy_before_cut([&](auto p) { named = named || decltype(p)::name() == base; });
  if (!named) return std::nullopt;
  return iterate_named<CudaSpace>([](auto&& f) { for_each_device_step_policy_before_cut(f); }, policy, st, u, scratch,
                                  steps, b);
}

}  // namespace tessera::python
