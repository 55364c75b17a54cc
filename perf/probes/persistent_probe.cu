// Probe: a persistent 3D 7-point fp32 sweep that keeps the whole grid on chip across time
// steps (the PERKS idea), for the small and medium grids where temporal blocking loses most
// of its gain (192^3: 512.6 GCell/s on an H200, about 1.37x an H100's one-sweep floor).
//
// One cooperative block an SM owns a box of BX = N columns by BY rows by BZ planes in shared
// memory (192^3 on 132 SMs: 192 x 16 x 18 floats, 216 KiB). A step reads the box's cells
// and its neighbours' faces, writes the new values back in place and publishes its own faces
// to a global face grid (two, by step parity); one grid-wide barrier a step. So global
// memory carries only faces: a step's time is the shared-memory pass (about 6 accesses a
// cell), two block barriers and the grid barrier. Dirichlet faces: the padded grid's ghost
// cells hold their initial values.
//
// In place, with two block barriers a step: each thread computes the first half of its
// columns' planes into registers while every plane is still old, keeps the old value of the
// last plane of that half (its own column's z - 1 for the second half), waits, writes them,
// then computes and writes the second half the same way.
//
// Checked against T naive sweeps (the same expression, worst relative error printed).
// Build and run (about 10 s):
//   nvcc -O3 -std=c++17 -gencode arch=compute_90,code=sm_90 -Xptxas -v \
//        perf/probes/persistent_probe.cu -o persistent_probe && ./persistent_probe
#include <cooperative_groups.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "probe_timing.cuh"

namespace cg = cooperative_groups;

constexpr float c0 = 0.4f, c1 = 0.1f;  // u' = c0 u + c1 (sum of the 6 neighbours)
constexpr int threads = 1024;

/// Index into a padded (N + 2)^3 grid; x, y, z from -1 to N.
template <int N>
__host__ __device__ inline long at(int x, int y, int z) {
  return (long(z + 1) * (N + 2) + (y + 1)) * (N + 2) + (x + 1);
}

template <int N>
__global__ void naive_step(const float* __restrict__ in, float* __restrict__ out) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y, z = blockIdx.z;
  if (x >= N) return;
  const float s = ((((in[at<N>(x - 1, y, z)] + in[at<N>(x + 1, y, z)]) + in[at<N>(x, y - 1, z)]) +
                    in[at<N>(x, y + 1, z)]) + in[at<N>(x, y, z - 1)]) + in[at<N>(x, y, z + 1)];
  out[at<N>(x, y, z)] = c0 * in[at<N>(x, y, z)] + c1 * s;
}

/// BY rows and BZ planes a box (the last boxes may be shorter); CPT columns a thread
/// (columns: N x BY, thread t owns t, t + 1024, ...).
template <int N, int BY, int BZ, int CPT>
__global__ void __launch_bounds__(threads, 1)
    persistent(const float* __restrict__ initial, float* face0, float* face1, float* out, int steps) {
  extern __shared__ float box[];  // [BZ][BY][N]
  constexpr int H = (BZ + 1) / 2;
  const int nby = (N + BY - 1) / BY;
  const int y0 = (blockIdx.x % nby) * BY, z0 = (blockIdx.x / nby) * BZ;
  const int by = min(BY, N - y0), bz = min(BZ, N - z0);
  const int h = (bz + 1) / 2;
  auto grid = cg::this_grid();

  for (int i = threadIdx.x; i < bz * BY * N; i += threads) {
    const int x = i % N, ly = (i / N) % BY, lz = i / (N * BY);
    box[i] = ly < by ? initial[at<N>(x, y0 + ly, z0 + lz)] : 0.0f;
    if (ly < by && (ly == 0 || ly == by - 1 || lz == 0 || lz == bz - 1))  // faces at time 0
      __stcg(face0 + at<N>(x, y0 + ly, z0 + lz), box[i]);
  }
  __syncthreads();
  grid.sync();

  // the value at (x, ly, lz) of the box, or beyond it of the face grid g (time t)
  auto value = [&](const float* g, int x, int ly, int lz) -> float {
    if (x < 0 || x >= N) return __ldg(initial + at<N>(x, y0 + ly, z0 + lz));  // Dirichlet: x faces
    if (ly < 0 || ly >= by || lz < 0 || lz >= bz) return __ldcg(g + at<N>(x, y0 + ly, z0 + lz));
    return box[(lz * BY + ly) * N + x];
  };

  for (int t = 0; t < steps; ++t) {
    const float* g = (t & 1) ? face1 : face0;  // neighbours' faces at time t
    float* next = (t & 1) ? face0 : face1;     // this box's faces at time t + 1
    float nv[CPT][H];
    float old_mid[CPT];
    for (int half = 0; half < 2; ++half) {
      const int first = half ? h : 0, count = half ? bz - h : h;
#pragma unroll
      for (int k = 0; k < CPT; ++k) {
        const int col = threadIdx.x + k * threads, x = col % N, ly = col / N;
        if (ly >= by) continue;
#pragma unroll
        for (int j = 0; j < H; ++j) {
          if (j >= count) break;
          const int lz = first + j;
          const float below = (half && j == 0) ? old_mid[k] : value(g, x, ly, lz - 1);
          const float s = ((((value(g, x - 1, ly, lz) + value(g, x + 1, ly, lz)) + value(g, x, ly - 1, lz)) +
                            value(g, x, ly + 1, lz)) + below) + value(g, x, ly, lz + 1);
          nv[k][j] = c0 * box[(lz * BY + ly) * N + x] + c1 * s;
        }
        if (!half) old_mid[k] = box[((h - 1) * BY + ly) * N + x];
      }
      __syncthreads();  // every old value of this half has been read
#pragma unroll
      for (int k = 0; k < CPT; ++k) {
        const int col = threadIdx.x + k * threads, x = col % N, ly = col / N;
        if (ly >= by) continue;
#pragma unroll
        for (int j = 0; j < H; ++j) {
          if (j >= count) break;
          const int lz = first + j;
          box[(lz * BY + ly) * N + x] = nv[k][j];
          if (ly == 0 || ly == by - 1 || lz == 0 || lz == bz - 1) __stcg(next + at<N>(x, y0 + ly, z0 + lz), nv[k][j]);
        }
      }
    }
    __syncthreads();
    grid.sync();  // every box's faces at time t + 1 are published
  }

  for (int i = threadIdx.x; i < bz * BY * N; i += threads) {
    const int x = i % N, ly = (i / N) % BY, lz = i / (N * BY);
    if (ly < by) out[at<N>(x, y0 + ly, z0 + lz)] = box[i];
  }
}

template <int N, int BY, int BZ, int CPT>
void run(int steps, double floor_gcells) {
  static_assert(CPT * threads >= N * BY, "columns a thread too few for the box");
  const int nby = (N + BY - 1) / BY, nbz = (N + BZ - 1) / BZ, blocks = nby * nbz;
  const size_t shared = size_t(BZ) * BY * N * sizeof(float);
  const long total = long(N + 2) * (N + 2) * (N + 2);
  auto kernel = persistent<N, BY, BZ, CPT>;
  CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(shared)));
  int per_sm = 0, sms = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, shared));
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  cudaFuncAttributes attr;
  CK(cudaFuncGetAttributes(&attr, kernel));
  std::printf("%d^3: boxes %d x %d x %d, %d blocks (%d fit: %d an SM), %zu KiB shared, regs %d spill %zu B\n", N, N, BY,
              BZ, blocks, per_sm * sms, per_sm, shared / 1024, attr.numRegs, size_t(attr.localSizeBytes));
  if (blocks > per_sm * sms) {
    std::printf("  skipped: a cooperative launch needs every block resident\n");
    return;
  }
  std::vector<float> h(total);
  unsigned s = 12345;
  for (auto& v : h) v = float((s = s * 1664525u + 1013904223u) >> 8) / float(1 << 24);
  float *init, *f0, *f1, *out, *a, *b;
  for (float** p : {&init, &f0, &f1, &out, &a, &b}) CK(cudaMalloc(p, total * sizeof(float)));
  // the face grids' ghosts hold the Dirichlet values; each launch writes its faces at time 0
  CK(cudaMemcpy(init, h.data(), total * sizeof(float), cudaMemcpyHostToDevice));
  auto reset = [&] {
    for (float* p : {f0, f1, out, a, b}) CK(cudaMemcpy(p, init, total * sizeof(float), cudaMemcpyDeviceToDevice));
  };
  auto launch = [&] {
    void* args[] = {&init, &f0, &f1, &out, &steps};
    CK(cudaLaunchCooperativeKernel((void*)kernel, blocks, threads, args, shared, 0));
  };
  auto naive_sweeps = [&] {  // steps sweeps from a; the result in a (steps even) or b
    for (int t = 0; t < steps; ++t)
      naive_step<N><<<dim3((N + 127) / 128, N, N), 128>>>(t % 2 ? b : a, t % 2 ? a : b);
  };
  reset();
  launch();
  naive_sweeps();
  CK(cudaDeviceSynchronize());
  std::vector<float> got(total), want(total);
  CK(cudaMemcpy(got.data(), out, total * sizeof(float), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(want.data(), steps % 2 ? b : a, total * sizeof(float), cudaMemcpyDeviceToHost));
  double worst = 0;
  long off = 0;
  for (int z = 0; z < N; ++z)
    for (int y = 0; y < N; ++y)
      for (int x = 0; x < N; ++x) {
        const long i = at<N>(x, y, z);
        const double e = std::fabs(double(got[i]) - want[i]) / std::max(1e-30, std::fabs(double(want[i])));
        worst = std::max(worst, e);
        off += e > 1e-5;
      }
  const float ms = median_ms([&](int) { launch(); }, 7);
  const float naive_ms = median_ms([&](int) { naive_sweeps(); }, 3);
  const double cells = double(N) * N * N * steps;
  const double gc = cells / (ms * 1e6), naive_gc = cells / (naive_ms * 1e6);
  std::printf("  %d steps: persistent %.3f ms, %.1f GCell/s (%.2fx floor); naive sweeps %.1f GCell/s; worst rel err "
              "%.2e, %ld cells off %s\n",
              steps, ms, gc, gc / floor_gcells, naive_gc, worst, off, off == 0 ? "ok" : "MISMATCH");
  for (float* p : {init, f0, f1, out, a, b}) CK(cudaFree(p));
}

int main() {
  // the copy floor on this card: cudaMemcpy of 512^3 floats, read + write
  const size_t n = size_t(512) * 512 * 512;
  float *a, *b;
  CK(cudaMalloc(&a, n * sizeof(float)));
  CK(cudaMalloc(&b, n * sizeof(float)));
  const float copy_ms = median_ms([&](int) { cudaMemcpy(b, a, n * sizeof(float), cudaMemcpyDeviceToDevice); }, 9);
  const double copy_gbs = 2.0 * n * sizeof(float) / (copy_ms * 1e6), floor_gcells = copy_gbs / 8;
  std::printf("copy %.0f GB/s, one-sweep floor %.1f GCell/s (fp32)\n", copy_gbs, floor_gcells);
  CK(cudaFree(a));
  CK(cudaFree(b));
  run<192, 16, 18, 3>(100, floor_gcells);  // 12 x 11 = 132 boxes of 216 KiB
  run<160, 16, 13, 3>(100, floor_gcells);  // 10 x 13 = 130 boxes
  run<128, 8, 16, 1>(100, floor_gcells);   // 16 x 8 = 128 boxes
  return 0;
}
