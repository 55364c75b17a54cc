#pragma once
// Turns a failed CUDA runtime call into a tessera::backend_error that names the call,
// the CUDA error string and the context (policy, view).
#include <cuda_runtime_api.h>

#include <string>

#include "tessera/core/errors.hpp"

namespace tessera::detail {

inline void cuda_check(cudaError_t status, const char* call, const std::string& context) {
  if (status == cudaSuccess) return;
  std::string msg = std::string("tessera: ") + call + " failed: " + cudaGetErrorName(status) +
                    " (" + cudaGetErrorString(status) + ")";
  if (!context.empty()) msg += " [" + context + "]";
  if (status == cudaErrorMemoryAllocation) throw allocation_error(msg);
  throw backend_error(msg);
}

}  // namespace tessera::detail

/// Checks a CUDA runtime call; context is any std::string expression.
#define TESSERA_CUDA_CHECK(call, context) ::tessera::detail::cuda_check((call), #call, (context))
