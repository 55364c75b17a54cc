#pragma once
// Asynchronous copies global -> shared (cp.async, sm_80 and later), the feed of pipelined's
// rings for stencils and point functions and of temporal_blocking's box pass. nvcc only.
#include <cuda_runtime.h>

namespace tessera::cuda::kernels {

namespace async_copy {
/// Copies 16 bytes global -> shared asynchronously, or zero-fills them (valid == false).
/// Before sm_80 there is no cp.async: a synchronous load and store do the same.
__device__ inline void copy16(void* shared, const void* global, bool valid) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(shared));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(s), "l"(global), "r"(valid ? 16 : 0)
               : "memory");
#else
  *static_cast<int4*>(shared) = valid ? *static_cast<const int4*>(global) : int4{0, 0, 0, 0};
#endif
}
/// Copies one element (4 or 8 bytes) global -> shared asynchronously: the cells of a
/// 16-byte piece that a face maps apart.
template <class T>
__device__ inline void copy_element(T* shared, const T* global) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "cp.async copies 4, 8 or 16 bytes");
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(shared));
  asm volatile("cp.async.ca.shared.global [%0], [%1], %2;\n" ::"r"(s), "l"(global), "n"(sizeof(T)) : "memory");
#else
  *shared = *global;
#endif
}
__device__ inline void commit() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}
/// Waits until at most N of this thread's commit groups are still in flight.
template <int N>
__device__ inline void wait_pending() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
#endif
}
}  // namespace async_copy

}  // namespace tessera::cuda::kernels
