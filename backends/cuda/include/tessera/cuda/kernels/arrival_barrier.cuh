#pragma once
// Split arrive/wait barriers of a block (mbarrier, sm_80 and later): a thread arrives when
// it has stored its share of a buffer and waits, later, until every thread has. A warp
// that finished its part early goes on instead of idling at a __syncthreads, so warps may
// drift apart by as many buffers as the ring holds beyond the two a __syncthreads scheme
// needs. nvcc only.
#include <cuda_runtime.h>

namespace tessera::cuda::kernels::arrival_barrier {

/// The barrier's address in the shared window, as the mbarrier instructions take it.
__device__ inline unsigned shared_address(const unsigned long long* barrier) {
  return static_cast<unsigned>(__cvta_generic_to_shared(barrier));
}

/// One barrier: 8 bytes of shared memory, initialised by one thread to expect `count`
/// arrivals a phase; __syncthreads() after the initialisation, before the first arrive.
__device__ inline void init(unsigned long long* barrier, unsigned count) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("mbarrier.init.shared.b64 [%0], %1;" ::"r"(shared_address(barrier)), "r"(count) : "memory");
#else
  (void)barrier, (void)count;
#endif
}

/// This thread's arrival in the barrier's current phase (release: its shared stores before
/// are visible to a thread whose wait sees the phase complete).
__device__ inline void arrive(unsigned long long* barrier) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile(
      "{\n"
      " .reg .b64 state;\n"
      " mbarrier.arrive.shared.b64 state, [%0];\n"
      "}\n" ::"r"(shared_address(barrier))
      : "memory");
#else
  (void)barrier;
#endif
}

/// Waits until the phase of parity `parity` (0 for the first phase, then 1, 0, ...) has
/// completed. Before sm_80 there is no mbarrier: a __syncthreads stands in for it, which
/// is correct where every thread of the block reaches each wait (it then also waits for
/// the arrivals it stands for) and costs the drift the barriers would allow.
__device__ inline void wait(unsigned long long* barrier, unsigned parity) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#if __CUDA_ARCH__ >= 900
#define TESSERA_MBARRIER_WAIT "mbarrier.try_wait.parity.shared.b64"  // suspends the warp a while
#else
#define TESSERA_MBARRIER_WAIT "mbarrier.test_wait.parity.shared.b64"  // sm_80's: polls
#endif
  asm volatile(
      "{\n"
      " .reg .pred done;\n"
      "WAIT_%=:\n"
      " " TESSERA_MBARRIER_WAIT " done, [%0], %1;\n"
      " @!done bra WAIT_%=;\n"
      "}\n" ::"r"(shared_address(barrier)),
      "r"(parity)
      : "memory");
#undef TESSERA_MBARRIER_WAIT
#else
  (void)barrier, (void)parity;
  __syncthreads();
#endif
}

}  // namespace tessera::cuda::kernels::arrival_barrier
