#pragma once
// Policies by name, as the command line spells them ("host:parallel",
// "cuda:register-tiled", "automatic"): with_policy(name, f) calls f(policy, space) with
// the policy value and a tag of the memory space its views live in.
#include <string>
#include <type_traits>
#include <vector>

#include "policy_list.hpp"

namespace tessera::app {

template <class Space>
struct space_tag {
  using type = Space;
};

inline std::vector<std::string> policy_names() {
  std::vector<std::string> v;
  for_each_host_policy([&](auto p) { v.push_back(decltype(p)::name()); });
  for_each_cuda_policy([&](auto p) { v.push_back(decltype(p)::name()); });
  v.push_back("automatic");
  return v;
}

/// False when no policy has that name in this build. "automatic" runs on the GPU when
/// one is present, else on the host.
template <class F>
bool with_policy(const std::string& name, F&& f) {
  bool found = false;
  for_each_host_policy([&](auto p) {
    if (!found && decltype(p)::name() == name) found = true, f(p, space_tag<HostSpace>{});
  });
#if TESSERA_ENABLE_CUDA
  for_each_cuda_policy([&](auto p) {
    if (!found && decltype(p)::name() == name) found = true, f(p, space_tag<CudaSpace>{});
  });
  if (!found && name == "automatic") {
    found = true;
    if (cuda_device_present()) f(automatic{}, space_tag<CudaSpace>{});
    else f(automatic{}, space_tag<HostSpace>{});
  }
#else
  if (!found && name == "automatic") found = true, f(automatic{}, space_tag<HostSpace>{});
#endif
  return found;
}

}  // namespace tessera::app
