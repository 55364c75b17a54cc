// Stand-alone probe behind perf/RESULTS.md run 6 (not part of the build): device copy
// kernels against cudaMemcpy, and a hand-written float4 z-streaming 7-point sweep at
// several chunk lengths, fp32 512^3 with one ghost layer. On an H100 (run 6): float4 copy
// with a full grid 1.01 of cudaMemcpy, grid-stride 0.94-0.95; zs4<8,1> chunk 32/16/8/4 =
// 0.86/0.87/0.89/0.94. cuda::vector_streaming is this kernel made general; it reached
// 0.84 at 7 points in 3D in run 6, and ncu of both side by side (run 7) showed it
// executing 2.25x the instructions: fixed, it runs at 0.94. Timing helpers:
// probe_timing.cuh (shared with vs_probe.cu, found beside this file).
//   nvcc -O3 -std=c++17 -arch=sm_90 perf/probes/zs4_probe.cu -o zs4_probe && ./zs4_probe
//   ncu --kernel-name regex:zs4 --launch-count 1 ./zs4_probe
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "probe_timing.cuh"

constexpr int N = 512, G = 1, PAD = 32, P = PAD + N + 32, ROWS = N + 2 * G;  // pitch P floats, interior x at PAD
constexpr long PL = (long)P * ROWS;                                          // plane stride
constexpr long TOT = PL * (N + 2 * G);
__host__ __device__ inline long at(int z, int y, int x) { return (long)(z + G) * PL + (long)(y + G) * P + PAD + x; }
__constant__ float c7[7];

__global__ void copy4(const float4* __restrict__ a, float4* __restrict__ b, long n) {
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x)
    __stcs(b + i, __ldg(a + i));
}

__global__ void naive7(const float* __restrict__ in, float* __restrict__ out) {
  const int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 8 + threadIdx.y, z = blockIdx.z;
  const long i = at(z, y, x);
  out[i] = c7[0] * in[i - PL] + c7[1] * in[i - P] + c7[2] * in[i - 1] + c7[3] * in[i] + c7[4] * in[i + 1] +
           c7[5] * in[i + P] + c7[6] * in[i + PL];
}

// A warp is one row segment of 128 floats (a lane owns a float4), BY warps are BY rows;
// prev/cur/next planes in registers plus D planes loaded ahead; y-neighbours by __ldg,
// x-neighbours by shuffles (lanes 0 and 31 load the one float beyond the warp).
template <int BY, int D>
__global__ void __launch_bounds__(32 * BY) zs4(const float* __restrict__ in, float* __restrict__ out, int chunk) {
  const int lane = threadIdx.x, y = blockIdx.y * BY + threadIdx.y, x0 = (blockIdx.x * 32 + lane) * 4;
  const int z0 = blockIdx.z * chunk, steps = min(chunk, N - z0);
  const float* base = in + at(z0, y, x0);
  auto ld4 = [&](long off) { return __ldg(reinterpret_cast<const float4*>(base + off)); };
  float4 prev = ld4(-PL), cur = ld4(0);
  float4 q[D];
#pragma unroll
  for (int d = 0; d < D; ++d) q[d] = ld4((long)(d + 1) * PL);
  float* o = out + at(z0, y, x0);
  for (int s = 0; s < steps; ++s) {
    const long pz = (long)s * PL;
    const float4 ym = ld4(pz - P), yp = ld4(pz + P);
    float xl = __shfl_up_sync(0xffffffffu, cur.w, 1), xr = __shfl_down_sync(0xffffffffu, cur.x, 1);
    if (lane == 0) xl = __ldg(base + pz - 1);
    if (lane == 31) xr = __ldg(base + pz + 4);
    const float4 nx = q[0];
#pragma unroll
    for (int d = 0; d + 1 < D; ++d) q[d] = q[d + 1];
    if (s + D + 1 <= steps) q[D - 1] = ld4(pz + (long)(D + 1) * PL);  // plane s + D + 1
    float4 r;
    r.x = c7[0] * prev.x + c7[1] * ym.x + c7[2] * xl + c7[3] * cur.x + c7[4] * cur.y + c7[5] * yp.x + c7[6] * nx.x;
    r.y = c7[0] * prev.y + c7[1] * ym.y + c7[2] * cur.x + c7[3] * cur.y + c7[4] * cur.z + c7[5] * yp.y + c7[6] * nx.y;
    r.z = c7[0] * prev.z + c7[1] * ym.z + c7[2] * cur.y + c7[3] * cur.z + c7[4] * cur.w + c7[5] * yp.z + c7[6] * nx.z;
    r.w = c7[0] * prev.w + c7[1] * ym.w + c7[2] * cur.z + c7[3] * cur.w + c7[4] * xr + c7[5] * yp.w + c7[6] * nx.w;
    __stcs(reinterpret_cast<float4*>(o + pz), r);
    prev = cur;
    cur = nx;
  }
}

int main() {
  float *in, *out, *ref;
  const size_t bytes = TOT * sizeof(float);
  CK(cudaMalloc(&in, bytes));
  CK(cudaMalloc(&out, bytes));
  CK(cudaMalloc(&ref, bytes));
  std::vector<float> h(TOT);
  for (long i = 0; i < TOT; ++i) h[i] = (float)((i * 2654435761u) % 1000) * 1e-3f;
  CK(cudaMemcpy(in, h.data(), bytes, cudaMemcpyHostToDevice));
  const float c[7] = {0.1f, 0.2f, 0.3f, -1.2f, 0.25f, 0.15f, 0.2f};
  CK(cudaMemcpyToSymbol(c7, c, sizeof c));
  const double ideal = 2.0 * N * N * (double)N * 4;  // bytes: each input read once, each output written once
  const size_t cb = (size_t)N * N * N * 4;          // copy the same bytes
  const float tm = median_ms([&](int) { cudaMemcpy(out, in, cb, cudaMemcpyDeviceToDevice); });
  const double copy = 2.0 * cb / (tm * 1e-3) * 1e-9;
  std::printf("cudaMemcpy: %.3f ms %.0f GB/s\n", tm, copy);
  auto report = [&](const char* name, float ms) {
    const double gbs = ideal / (ms * 1e-3) * 1e-9;
    std::printf("%-28s %.3f ms %.0f GB/s frac %.3f\n", name, ms, gbs, gbs / copy);
  };
  for (int blocks : {132 * 4, 132 * 8, 132 * 16}) {
    char name[64];
    std::snprintf(name, sizeof name, "copy4 %d blocks x256", blocks);
    report(name, median_ms([&](int) { copy4<<<blocks, 256>>>((const float4*)in, (float4*)out, cb / 16); }));
  }
  report("copy4 full grid x256",
         median_ms([&](int) { copy4<<<(cb / 16 + 255) / 256, 256>>>((const float4*)in, (float4*)out, cb / 16); }));
  report("naive7 32x8", median_ms([&](int) { naive7<<<dim3(N / 32, N / 8, N), dim3(32, 8)>>>(in, ref); }));
  CK(cudaDeviceSynchronize());
  std::vector<float> hr(TOT), ho(TOT);
  CK(cudaMemcpy(hr.data(), ref, bytes, cudaMemcpyDeviceToHost));
  auto check = [&] {
    CK(cudaMemcpy(ho.data(), out, bytes, cudaMemcpyDeviceToHost));
    double m = 0;
    for (int z = 0; z < N; ++z)
      for (int y = 0; y < N; ++y)
        for (int x = 0; x < N; ++x) m = std::max(m, (double)std::fabs(ho[at(z, y, x)] - hr[at(z, y, x)]));
    std::printf("   max |zs4 - naive7| = %.3g\n", m);
  };
#define ZS(BY, D, CH)                                                                          \
  {                                                                                            \
    CK(cudaMemset(out, 0, bytes));                                                             \
    report("zs4<" #BY "," #D "> chunk " #CH, median_ms([&](int) {                                   \
             zs4<BY, D><<<dim3(N / 128, N / BY, (N + CH - 1) / CH), dim3(32, BY)>>>(in, out, CH); \
           }));                                                                                \
    check();                                                                                   \
  }
  ZS(8, 1, 32) ZS(8, 1, 16) ZS(8, 1, 8) ZS(8, 1, 4) ZS(8, 2, 16) ZS(8, 2, 8) ZS(4, 1, 8) ZS(16, 1, 8)
}
