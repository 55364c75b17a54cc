// The Python module's sweeps of device (CuPy, DLPack) arrays: every listed CUDA strategy
// (tessera/cuda/strategies.def) with its default tiles, cuda::automatic, automatic, and
// kokkos::mdrange where the build has Kokkos (it stages through the host).
#include <cuda_runtime_api.h>

#include "sweeps.hpp"

namespace tessera::python {
namespace {

/// The policies that iterate device arrays: every one but the Kokkos reference, whose
/// host-staged sweep has no place in a step loop recorded on a stream.
template <class F>
void for_each_device_step_policy(F&& f) {
  for_each_type(cuda::strategies{}, f);
  f(cuda::automatic{});
  f(automatic{});
}

template <class F>
void for_each_device_policy(F&& f) {
  for_each_device_step_policy(f);
#if TESSERA_PYTHON_KOKKOS
  f(kokkos::mdrange{});
#endif
}

/// Whether P's sweep takes the caller's stream (the Kokkos reference does not).
template <class P>
constexpr bool takes_stream = true;
#if TESSERA_PYTHON_KOKKOS
template <>
constexpr bool takes_stream<kokkos::mdrange> = false;
#endif

}  // namespace

std::vector<std::string> cuda_policy_names() {
  std::vector<std::string> v;
  for_each_device_policy([&](auto p) { v.push_back(decltype(p)::name()); });
  return v;
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

bool iterate_cuda(const std::string& policy, const stencil_desc& st, const views_in<CudaSpace>& u,
                  const views_in<CudaSpace>& scratch, int steps, const boundary_desc& b) {
  if (policy == "kokkos:mdrange")
    throw unsupported_error("tessera.iterate(kokkos:mdrange): the Kokkos reference sweeps device arrays one apply "
                            "or validate at a time (staged through the host); iterate them with a cuda: policy or "
                            "automatic");
  return iterate_named<CudaSpace>([](auto&& f) { for_each_device_step_policy(f); }, policy, st, u, scratch, steps, b);
}

validation_desc validate_cuda(const std::string& policy, const stencil_desc& st, const views_in<CudaSpace>& in,
                              double tolerance) {
  return validate_named<CudaSpace>([](auto&& f) { for_each_device_policy(f); }, policy, st, in, tolerance);
}

}  // namespace tessera::python
