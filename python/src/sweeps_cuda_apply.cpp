// The Python module's apply on device arrays, and the names of the device policies
// (sweeps_cuda_policies.hpp).
#include "sweeps_cuda_policies.hpp"

namespace tessera::python {

std::vector<std::string> cuda_policy_names() {
  return policy_names([](auto&& f) { for_each_device_policy(f); });
}

void apply_cuda(const std::string& policy, const stencil_desc& st, const views_in<CudaSpace>& in,
                const views_in<CudaSpace>& out, std::uintptr_t stream_handle) {
  const auto stream = reinterpret_cast<cudaStream_t>(stream_handle);
  apply_named<CudaSpace>([](auto&& f) { for_each_device_policy(f); }, policy, st, in, out,
                         [&](const auto& p, const auto& s, const auto& i, const auto& o) {
                           if constexpr (takes_stream<std::decay_t<decltype(p)>>) {
                             apply(p, s, i, o, stream);
                           } else {
                             // the reference stages through the host on the default stream:
                             // let the caller's stream finish first
                             TESSERA_CUDA_CHECK(cudaStreamSynchronize(stream), "tessera.apply(" + policy + ")");
                             apply(p, s, i, o);
                           }
                         });
}

}  // namespace tessera::python
