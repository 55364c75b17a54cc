#pragma once
// What the stand-alone probes share (each still builds with one nvcc command; this file
// is found beside them): a CUDA error check, the median time of a launch, the field the
// probes check their kernels on, and the card's copy time that their floors come from.
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

/// `count` cells of a fixed pseudo-random field in [-0.5, 0.5): every run checks the same data.
inline std::vector<float> random_cells(long count) {
  std::vector<float> cells(count);
  unsigned seed = 7;
  for (auto& v : cells) v = float((seed = seed * 1664525u + 1013904223u) >> 8) / float(1 << 24) - 0.5f;
  return cells;
}

/// Median time of a device-to-device copy of `bytes` (9 copies): the card's copy rate in
/// the same run, from which a probe's one-sweep floor (a read and a write a cell) follows.
inline float copy_median_ms(void* to, const void* from, std::size_t bytes) {
  return median_ms([&](int) { cudaMemcpy(to, from, bytes, cudaMemcpyDeviceToDevice); }, 9);
}
