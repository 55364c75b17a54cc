// Probe (not part of the build): what writing the x-faces' ghost cells of a 512^3 fp32
// field costs on a GPU, one cell per row (what fill_ghosts does) against whole 64-byte
// chunks per row (the ghost cell plus the row padding beside it), with and without the
// periodic source reads. Laid out like a tessera View (rows padded to 128 bytes, the
// interior of each row on a 128-byte boundary). Behind perf/RESULTS.md run 10.
//   nvcc -O3 -std=c++20 -arch=sm_90 perf/probes/xface_probe.cu -o xface_probe && ./xface_probe
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <vector>

constexpr long long n = 512, lead = 32, stride = lead + n + 32, rows = (n + 2) * (n + 2);

// one thread per row: x = -1 and x = n (periodic: from x = n - 1 and x = 0 when copy)
template <bool Copy>
__global__ void cell_per_row(float* a) {
  const long long r = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float* row = a + r * stride + lead;  // x = 0
  row[-1] = Copy ? row[n - 1] : 0.5f;
  row[n] = Copy ? row[0] : 0.5f;
}

// 16 threads per row: the 64-byte chunks x = -16..-1 and x = n..n+15, whole
template <bool Copy>
__global__ void chunk_per_row(float* a) {
  const long long t = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const long long r = t / 16;
  const int j = static_cast<int>(t % 16);
  if (r >= rows) return;
  float* row = a + r * stride + lead;
  row[-16 + j] = Copy ? row[n - 16 + j] : 0.5f;
  row[n + j] = Copy ? row[j] : 0.5f;
}

template <class K>
float time_ms(K launch) {
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  std::vector<float> t;
  for (int k = 0; k < 23; ++k) {
    cudaEventRecord(a);
    launch();
    cudaEventRecord(b);
    cudaEventSynchronize(b);
    float ms = 0;
    cudaEventElapsedTime(&ms, a, b);
    if (k >= 3) t.push_back(ms);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

int main() {
  float* a = nullptr;
  const size_t bytes = static_cast<size_t>(rows) * stride * sizeof(float);
  cudaMalloc(&a, bytes);
  cudaMemset(a, 0, bytes);
  const int blk = 256;
  const unsigned g1 = static_cast<unsigned>((rows + blk - 1) / blk), g16 = static_cast<unsigned>((rows * 16 + blk - 1) / blk);
  std::printf("x-faces of a 512^3 fp32 field (%lld rows, row %lld floats)\n", rows, stride);
  std::printf("one cell per row, write:        %.4f ms\n", time_ms([&] { cell_per_row<false><<<g1, blk>>>(a); }));
  std::printf("one cell per row, periodic copy: %.4f ms\n", time_ms([&] { cell_per_row<true><<<g1, blk>>>(a); }));
  std::printf("64-byte chunk per row, write:    %.4f ms\n", time_ms([&] { chunk_per_row<false><<<g16, blk>>>(a); }));
  std::printf("64-byte chunk per row, copy:     %.4f ms\n", time_ms([&] { chunk_per_row<true><<<g16, blk>>>(a); }));
  void* b = nullptr;
  cudaMalloc(&b, bytes);
  const float copy = time_ms([&] { cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice); });
  std::printf("copy of the field (%.2f GB): %.4f ms, %.0f GB/s read + write\n", bytes * 1e-9, copy, 2 * bytes / (copy * 1e-3) * 1e-9);
  std::printf("%s\n", cudaGetErrorString(cudaGetLastError()));
  return 0;
}
