#pragma once
// What the register-tile probes of the 3D fused pass share (register_tile_probe.cu,
// register_tile_async_probe.cu): a padded 512^3 fp32 grid with Dirichlet faces, the naive
// sweep they are checked against, and one case's check and timing over several chunks.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "probe_timing.cuh"

// A 512^3 interior with padding wide enough that every tile's loads stay in the allocation:
// cells outside the interior are fixed (Dirichlet: they keep what they hold), so what the
// padding holds beyond the first ghost layer never reaches an interior cell.
constexpr int N = 512, PADX = 32, P = PADX + N + 64, GY = 32, ROWS = N + 2 * GY, GZ = 16, PLANES = N + 2 * GZ;
constexpr long PL = (long)P * ROWS;
constexpr long TOT = PL * PLANES;
__host__ __device__ inline long at(int z, int y, int x) { return (long)(z + GZ) * PL + (long)(y + GY) * P + PADX + x; }
__constant__ float c7[7];  // centre, z-, z+, y-, y+, x-, x+

// One sweep, the reference: interior cells updated, every other cell copied (so the ghosts
// of both buffers stay equal).
__global__ void naive_sweep(const float* __restrict__ in, float* __restrict__ out) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y, z = blockIdx.z;
  if (x >= N) return;
  const long i = at(z, y, x);
  out[i] = c7[0] * in[i] + c7[1] * in[i - PL] + c7[2] * in[i + PL] + c7[3] * in[i - P] + c7[4] * in[i + P] +
           c7[5] * in[i - 1] + c7[6] * in[i + 1];
}

constexpr int CX = 2, TX = 32 * CX;  // a warp spans the tile's width

/// The two buffers, the initial field, the results of 1..4 naive sweeps from it and the
/// one-sweep floor of this card (copy bandwidth / 8 bytes a cell).
struct probe_grid {
  float *a = nullptr, *b = nullptr;
  std::vector<float> init;
  std::vector<std::vector<float>> ref;
  double floor_gcells = 0;
  probe_grid() : init(TOT), ref(5, std::vector<float>(TOT)) {
    unsigned seed = 12345;
    for (long i = 0; i < TOT; ++i) {
      seed = seed * 1664525u + 1013904223u;
      init[i] = float(seed >> 8) / float(1 << 24) - 0.5f;
    }
    const float coef[7] = {0.4f, 0.1f, 0.1f, 0.1f, 0.1f, 0.1f, 0.1f};
    CK(cudaMemcpyToSymbol(c7, coef, sizeof coef));
    CK(cudaMalloc(&a, TOT * sizeof(float)));
    CK(cudaMalloc(&b, TOT * sizeof(float)));
    // the copy floor on this card: cudaMemcpy of one field, read + write
    const float copy_ms = median_ms([&](int) { cudaMemcpy(b, a, TOT * sizeof(float), cudaMemcpyDeviceToDevice); }, 9);
    const double copy_gbs = 2.0 * TOT * sizeof(float) / (copy_ms * 1e6);
    floor_gcells = copy_gbs / (2 * sizeof(float));
    std::printf("copy %.0f GB/s, one-sweep floor %.1f GCell/s (fp32)\n", copy_gbs, floor_gcells);
    // the reference results for K = 1..4 steps: naive sweeps from init
    CK(cudaMemcpy(a, init.data(), TOT * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(b, init.data(), TOT * sizeof(float), cudaMemcpyHostToDevice));
    for (int k = 1; k <= 4; ++k) {
      float* from = k & 1 ? a : b;
      float* to = k & 1 ? b : a;
      naive_sweep<<<dim3((N + 127) / 128, N, N), 128>>>(from, to);
      CK(cudaMemcpy(ref[k].data(), to, TOT * sizeof(float), cudaMemcpyDeviceToHost));
    }
    const float naive_ms = median_ms(
        [&](int r) { naive_sweep<<<dim3((N + 127) / 128, N, N), 128>>>(r & 1 ? b : a, r & 1 ? a : b); }, 9);
    std::printf("naive sweep %.1f GCell/s\n", double(N) * N * N / (naive_ms * 1e6));
  }
  ~probe_grid() {
    cudaFree(a);
    cudaFree(b);
  }
  probe_grid(const probe_grid&) = delete;
  probe_grid& operator=(const probe_grid&) = delete;
};

/// One K-step pass `kernel(in, out, chunk)` on blocks of `block` threads with `shared` bytes,
/// each owning an OX x OY output tile: for each chunk, one pass checked against K naive
/// sweeps, then 100 / K passes back and forth timed (median of 5), printed after `label`.
template <class Kernel>
void check_and_time(const char* label, Kernel kernel, int K, int OX, int OY, dim3 block, size_t shared, probe_grid& g) {
  CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(shared)));
  cudaFuncAttributes attr;
  CK(cudaFuncGetAttributes(&attr, kernel));
  int per_sm = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, int(block.x * block.y), shared));
  for (int chunk : {64, 86, 103, 128, 171, 256}) {
    const dim3 grid((N + OX - 1) / OX, (N + OY - 1) / OY, (N + chunk - 1) / chunk);
    // correctness: one pass of K steps against K naive sweeps
    CK(cudaMemcpy(g.a, g.init.data(), TOT * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(g.b, g.init.data(), TOT * sizeof(float), cudaMemcpyHostToDevice));
    kernel<<<grid, block, shared>>>(g.a, g.b, chunk);
    CK(cudaDeviceSynchronize());
    std::vector<float> got(TOT);
    CK(cudaMemcpy(got.data(), g.b, TOT * sizeof(float), cudaMemcpyDeviceToHost));
    double worst = 0;
    long bad = 0;
    for (int z = 0; z < N; ++z)
      for (int y = 0; y < N; ++y)
        for (int x = 0; x < N; ++x) {
          const long i = at(z, y, x);
          const double e = std::fabs(double(got[i]) - double(g.ref[K][i]));
          worst = std::max(worst, e);
          if (!(e <= 1e-5)) ++bad;
        }
    // timing: passes back and forth (results no longer checked), per step
    const int passes = 100 / K;
    const float ms = median_ms(
        [&](int) {
          for (int i = 0; i < passes; ++i) kernel<<<grid, block, shared>>>(i & 1 ? g.b : g.a, i & 1 ? g.a : g.b, chunk);
        },
        5);
    const double per_step = ms / (passes * K);
    const double gc = double(N) * N * N / (per_step * 1e6);
    std::printf("%s: regs %d spill %zu B, %d blocks/SM, chunk %3d: %7.1f GCell/s (%.2fx floor) worst err %.2e, %ld "
                "cells off %s\n",
                label, attr.numRegs, size_t(attr.localSizeBytes), per_sm, chunk, gc, gc / g.floor_gcells, worst, bad,
                bad ? "WRONG" : "ok");
  }
}
