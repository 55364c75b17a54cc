// Probe (not part of the build): the register tile of outputs for 3D boxes of radius R that
// cuda::register_tiled runs (strategies/register_tiled/kernels.cuh), here with the variants
// perf/log/run-51.md compares: A, a row of a thread's plane values live at a time (the
// library's); B, all rows preloaded and the coefficients outermost; MinBlocks launch bounds;
// 8, 4 or 2 rows a thread; chunk along z. Each launch is checked against a naive kernel and
// timed (median of 10) at 256^3 and 512^3, fp32 and fp64, with its registers, spills and
// blocks an SM. Self-contained:
//   nvcc -std=c++20 -O3 -gencode arch=compute_90,code=sm_90 perf/probes/box_register_probe.cu -o box_probe
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cmath>
#include <string>

template <int R, class T>
struct params {
  const T* in; T* out;
  long long sz, sy;  // strides (same for in and out)
  int nz, ny, nx;
  T c[(2 * R + 1) * (2 * R + 1) * (2 * R + 1)];
};

template <int N, class F, int... I>
__device__ __forceinline__ void sfor_impl(F&& f, std::integer_sequence<int, I...>) { (f(std::integral_constant<int, I>{}), ...); }
template <int N, class F>
__device__ __forceinline__ void sfor(F&& f) { sfor_impl<N>(f, std::make_integer_sequence<int, N>{}); }

template <int R, class T, int TileX, int TileY, int Rows, int MinBlocks, bool KOuter>
__global__ void __launch_bounds__(TileX * (TileY / Rows), MinBlocks) box_kernel(const params<R, T> p, const int chunk) {
  constexpr int W = 2 * R + 1, in_x = TileX + 2 * R, in_y = TileY + 2 * R, in_cells = in_x * in_y;
  constexpr int threads = TileX * (TileY / Rows);
  constexpr int share = (in_cells + threads - 1) / threads;
  __shared__ T plane[2][in_cells];
  const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * TileX + tx;
  const long long x0 = (long long)blockIdx.x * TileX, y0 = (long long)blockIdx.y * TileY;
  const long long z0 = (long long)blockIdx.z * chunk, z_end = min(z0 + chunk, (long long)p.nz);
  int at[share]; unsigned loads = 0;
#pragma unroll
  for (int k = 0; k < share; ++k) {
    const int i = tid + k * threads, row = i / in_x, col = i - row * in_x;
    at[k] = (int)(row * p.sy + col);
    if (i < in_cells && y0 - R + row < p.ny + R && x0 - R + col < p.nx + R) loads |= 1u << k;
  }
  const T* const corner = p.in + (y0 - R) * p.sy + (x0 - R);
  T next[share];
  auto fetch = [&](long long z) {
    const T* base = corner + z * p.sz;
#pragma unroll
    for (int k = 0; k < share; ++k) next[k] = (loads >> k) & 1u ? __ldg(base + at[k]) : T(0);
  };
  auto publish = [&](int b) {
#pragma unroll
    for (int k = 0; k < share; ++k) if (k + 1 < share || tid + k * threads < in_cells) plane[b][tid + k * threads] = next[k];
  };
  T acc[W][Rows];
#pragma unroll
  for (int j = 0; j < W; ++j)
#pragma unroll
    for (int r = 0; r < Rows; ++r) acc[j][r] = T(0);
  const long long z_first = z0 - R, z_last = z_end - 1 + R;
  fetch(z_first); publish(0); __syncthreads();
  const long long y_first = y0 + ty * Rows, x = x0 + tx;
  T* const out_column = p.out + y_first * p.sy + x;
  int b = 0;
  for (long long zi = z_first; zi <= z_last; ++zi) {
    if (zi < z_last) fetch(zi + 1);
    const T* const rows_in = plane[b] + ty * Rows * in_x + tx;
    if constexpr (KOuter) {
      T v[Rows + 2 * R][W];
#pragma unroll
      for (int ri = 0; ri < Rows + 2 * R; ++ri)
#pragma unroll
        for (int d = 0; d < W; ++d) v[ri][d] = rows_in[ri * in_x + d];
      sfor<W * W * W>([&](auto k_) {
        constexpr int K = decltype(k_)::value;
        constexpr int dz = K / (W * W) - R, dy = (K / W) % W - R, dx = K % W - R;
        const T c = p.c[K];
#pragma unroll
        for (int r = 0; r < Rows; ++r) acc[R - dz][r] += c * v[r + R + dy][dx + R];
      });
    } else {
      sfor<Rows + 2 * R>([&](auto ri_) {
        constexpr int ri = decltype(ri_)::value;
        T v[W];
#pragma unroll
        for (int d = 0; d < W; ++d) v[d] = rows_in[ri * in_x + d];
        sfor<W * W * W>([&](auto k_) {
          constexpr int K = decltype(k_)::value;
          constexpr int dz = K / (W * W) - R, dy = (K / W) % W - R, dx = K % W - R;
          constexpr int r = ri - R - dy;
          if constexpr (r >= 0 && r < Rows) acc[R - dz][r] += p.c[K] * v[dx + R];
        });
      });
    }
    const long long zo = zi - R;
    if (zo >= z0 && x < p.nx) {
      T* const o = out_column + zo * p.sz;
#pragma unroll
      for (int r = 0; r < Rows; ++r) if (y_first + r < p.ny) o[r * p.sy] = acc[0][r];
    }
#pragma unroll
    for (int j = 0; j + 1 < W; ++j)
#pragma unroll
      for (int r = 0; r < Rows; ++r) acc[j][r] = acc[j + 1][r];
#pragma unroll
    for (int r = 0; r < Rows; ++r) acc[W - 1][r] = T(0);
    if (zi < z_last) publish(b ^ 1);
    __syncthreads();
    b ^= 1;
  }
}

template <int R, class T>
__global__ void naive_kernel(const params<R, T> p) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y, z = blockIdx.z;
  if (x >= p.nx) return;
  constexpr int W = 2 * R + 1;
  T s = 0;
  for (int K = 0; K < W * W * W; ++K) {
    const int dz = K / (W * W) - R, dy = (K / W) % W - R, dx = K % W - R;
    s += p.c[K] * p.in[(z + dz) * p.sz + (y + dy) * p.sy + x + dx];
  }
  p.out[z * p.sz + y * p.sy + x] = s;
}

template <int R, class T, int TileX, int TileY, int Rows, int MinBlocks, bool KOuter>
void run(int n, int chunk, int reps, const char* name) {
  const long long g = n + 2 * R, sy = g, sz = g * g, total = g * g * g;
  T *in, *out, *ref;
  cudaMalloc(&in, total * sizeof(T)); cudaMalloc(&out, total * sizeof(T)); cudaMalloc(&ref, total * sizeof(T));
  std::vector<T> h(total);
  unsigned s = 12345;
  for (auto& v : h) { s = s * 1664525u + 1013904223u; v = T((s >> 8) & 0xffff) / T(65536) - T(0.5); }
  cudaMemcpy(in, h.data(), total * sizeof(T), cudaMemcpyHostToDevice);
  cudaMemset(out, 0, total * sizeof(T)); cudaMemset(ref, 0, total * sizeof(T));
  params<R, T> p;
  const long long origin = R * sz + R * sy + R;
  p.in = in + origin; p.sz = sz; p.sy = sy; p.nz = p.ny = p.nx = n;
  constexpr int P = (2 * R + 1) * (2 * R + 1) * (2 * R + 1);
  for (int k = 0; k < P; ++k) p.c[k] = T(1) / T(P) * T(1 + (k % 7) * 0.01);
  p.out = ref + origin;
  naive_kernel<R, T><<<dim3((n + 127) / 128, n, n), 128>>>(p);
  p.out = out + origin;
  if (chunk == 0) chunk = 32;
  dim3 grid((n + TileX - 1) / TileX, (n + TileY - 1) / TileY, (n + chunk - 1) / chunk), block(TileX, TileY / Rows);
  auto k = box_kernel<R, T, TileX, TileY, Rows, MinBlocks, KOuter>;
  cudaFuncAttributes attr; cudaFuncGetAttributes(&attr, k);
  int per_sm = 0; cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k, block.x * block.y, 0);
  k<<<grid, block>>>(p, chunk);
  cudaDeviceSynchronize();
  std::vector<T> a(total), b(total);
  cudaMemcpy(a.data(), out, total * sizeof(T), cudaMemcpyDeviceToHost);
  cudaMemcpy(b.data(), ref, total * sizeof(T), cudaMemcpyDeviceToHost);
  double err = 0, mx = 0;
  for (long long i = 0; i < total; ++i) { err = std::max(err, (double)std::fabs(a[i] - b[i])); mx = std::max(mx, (double)std::fabs(b[i])); }
  cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
  std::vector<float> t;
  for (int i = 0; i < reps; ++i) {
    cudaEventRecord(e0); k<<<grid, block>>>(p, chunk); cudaEventRecord(e1); cudaEventSynchronize(e1);
    float ms; cudaEventElapsedTime(&ms, e0, e1); t.push_back(ms);
  }
  std::sort(t.begin(), t.end());
  const double ms = t[t.size() / 2];
  const double cells = double(n) * n * n;
  const double gcell = cells / ms / 1e6;
  const double fma_rate = gcell * 1e9 * P / (sizeof(T) == 4 ? 33.45e12 : 16.7e12);
  std::printf("%-28s R%d %s n=%d chunk=%d regs=%d spill=%zu blocks/SM=%d: %.3f ms, %.1f GCell/s, %.2f of FMA peak, max err %.2e (max %.2e) %s\n",
              name, R, sizeof(T) == 4 ? "float" : "double", n, chunk, attr.numRegs, attr.localSizeBytes, per_sm, ms, gcell,
              fma_rate, err, mx, err <= (sizeof(T) == 4 ? 1e-5 : 1e-12) * std::max(1.0, mx) ? "ok" : "MISMATCH");
  cudaFree(in); cudaFree(out); cudaFree(ref);
}

int main(int argc, char** argv) {
  const int reps = 10;
  for (int n : {256, 512}) {
    for (int chunk : {32, 64}) {
      if (n == 512 && chunk == 32) continue;
      run<2, float, 32, 32, 8, 1, false>(n, chunk, reps, "A rows8 mb1");
      run<2, float, 32, 32, 8, 1, true>(n, chunk, reps, "B rows8 mb1");
      run<2, float, 32, 32, 8, 3, true>(n, chunk, reps, "B rows8 mb3");
      run<2, float, 32, 32, 8, 4, true>(n, chunk, reps, "B rows8 mb4");
      run<2, float, 32, 32, 4, 1, true>(n, chunk, reps, "B rows4 mb1");
      run<2, float, 32, 32, 4, 2, true>(n, chunk, reps, "B rows4 mb2");
      run<2, float, 64, 32, 8, 1, true>(n, chunk, reps, "B 64x32 rows8 mb1");
      run<2, double, 32, 32, 4, 1, false>(n, chunk, reps, "A rows4 mb1");
      run<2, double, 32, 32, 4, 1, true>(n, chunk, reps, "B rows4 mb1");
      run<2, double, 32, 32, 4, 2, true>(n, chunk, reps, "B rows4 mb2");
      run<2, double, 32, 32, 2, 1, true>(n, chunk, reps, "B rows2 mb1");
      run<2, double, 32, 32, 8, 1, false>(n, chunk, reps, "A rows8 mb1");
      run<1, float, 32, 32, 8, 1, false>(n, chunk, reps, "A rows8 mb1");
      run<1, float, 32, 32, 8, 1, true>(n, chunk, reps, "B rows8 mb1");
      run<1, double, 32, 32, 4, 1, false>(n, chunk, reps, "A rows4 mb1");
      run<1, double, 32, 32, 4, 1, true>(n, chunk, reps, "B rows4 mb1");
    }
  }
  return 0;
}
