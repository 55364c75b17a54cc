#pragma once
// What the stand-alone probes share (each still builds with one nvcc command; this file
// is found beside them): a CUDA error check and the median time of a launch.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x)                                                               \
  do {                                                                      \
    cudaError_t e = (x);                                                    \
    if (e != cudaSuccess) {                                                 \
      std::printf("CUDA %s at line %d\n", cudaGetErrorString(e), __LINE__); \
      std::exit(1);                                                         \
    }                                                                       \
  } while (0)

/// Median of `reps` timed calls f(r) (CUDA events), after two untimed ones; r is the
/// repetition, for probes that rotate buffers.
template <class F>
float median_ms(F f, int reps = 20) {
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  std::vector<float> t;
  f(0);
  f(1);
  CK(cudaDeviceSynchronize());
  for (int r = 0; r < reps; ++r) {
    cudaEventRecord(a);
    f(r);
    cudaEventRecord(b);
    cudaEventSynchronize(b);
    float ms;
    cudaEventElapsedTime(&ms, a, b);
    t.push_back(ms);
  }
  CK(cudaGetLastError());
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}
