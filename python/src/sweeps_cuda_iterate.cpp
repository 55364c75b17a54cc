// The Python module's iterate on device arrays (sweeps_cuda_policies.hpp): the policies from
// the cut; sweeps_cuda_iterate_first.cpp holds those before it.
#include "sweeps_cuda_policies.hpp"

namespace tessera::python {

bool iterate_cuda(const std::string& policy, const stencil_desc& st, const views_in<CudaSpace>& u,
                  const views_in<CudaSpace>& scratch, int steps, const boundary_desc& b) {
  if (policy == "kokkos:mdrange")
    throw unsupported_error("tessera.iterate(kokkos:mdrange): the Kokkos reference sweeps device arrays one apply "
                            "or validate at a time (staged through the host); iterate them with a cuda: policy or "
                            "automatic");
  if (const auto in_u = iterate_cuda_before_cut(policy, st, u, scratch, steps, b)) return *in_u;
  return iterate_named<CudaSpace>([](auto&& f) { for_each_device_step_policy_from_cut(f); }, policy, st, u, scratch,
                                  steps, b);
}

}  // namespace tessera::python
