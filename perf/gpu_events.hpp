#pragma once
// A pair of CUDA events around the work a benchmark times (tessera-bench's sections).
#include <cuda_runtime_api.h>

namespace tessera::bench {

struct events {
  cudaEvent_t a{}, b{};
  events() {
    cudaEventCreate(&a);
    cudaEventCreate(&b);
  }
  ~events() {
    cudaEventDestroy(a);
    cudaEventDestroy(b);
  }
  events(const events&) = delete;
  events& operator=(const events&) = delete;
  /// Milliseconds from a to b, once b has completed.
  float elapsed_ms() {
    float ms = 0;
    cudaEventSynchronize(b);
    cudaEventElapsedTime(&ms, a, b);
    return ms;
  }
  /// Milliseconds the work `sweep` enqueues on the default stream takes.
  template <class Sweep>
  float time_ms(Sweep&& sweep) {
    cudaEventRecord(a);
    sweep();
    cudaEventRecord(b);
    return elapsed_ms();
  }
};

}  // namespace tessera::bench
