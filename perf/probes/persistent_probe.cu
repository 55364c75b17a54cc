// Probe: a persistent 3D 7-point fp32 sweep that keeps the whole grid on chip across time
// steps (the PERKS idea), for the small and medium grids where temporal blocking loses most
// of its gain. The design cuda::persistent ports (strategies/persistent.hpp says how it
// works); this file keeps the geometry compile-time, which the library's kernel does not yet
// (perf/log/run-48.md: 22 instructions a cell here, 80 there).
//
// One cooperative block an SM owns a box of N columns by BY rows by BZ planes in shared
// memory, each row with its two x-neighbours beyond the faces (192^3 on 128 SMs: 24 rows by
// 12 planes, 218 KiB). A step updates the box in place, publishes its faces to a global face
// grid (two, by step parity) and ends with one grid barrier, timed alone below. Dirichlet
// faces: the padded grid's ghost cells hold their initial values.
//
// A second kernel, persistent_v4, holds each thread's 8 rows as two float4s ([plane][row
// group][half][column]), so the plane above, the x-neighbours and the stores move 4 rows an
// instruction: compiled, its SASS counted on the build VM (19 instructions a cell between
// barriers at 192^3 16 x 18, G 6, against the scalar kernel's 22), not yet run on a GPU.
//
// Checked against 100 naive sweeps (the same expression, worst relative error printed).
// Build and run (about 15 s):
//   nvcc -O3 -std=c++17 -gencode arch=compute_90,code=sm_90 -Xptxas -v \
//        perf/probes/persistent_probe.cu -o persistent_probe && ./persistent_probe
#include <cooperative_groups.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "probe_timing.cuh"

namespace cg = cooperative_groups;

constexpr float c0 = 0.4f, c1 = 0.1f;  // u' = c0 u + c1 (sum of the 6 neighbours)

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

/// One cooperative block an SM owns the box of rows y0 .. y0 + BY - 1 and planes z0 .. z0 + bz - 1
/// (all N columns), in shared memory as [bz][BY][N + 2]: each row carries its two x-ghosts
/// (Dirichlet values, never written), so an x-neighbour is a plain shared read.
/// Thread (x, q) owns column x of rows q * RPT .. q * RPT + RPT - 1 and marches z with the
/// planes below, at and above in registers: a plane costs RPT loads (the plane above), 2 for
/// the rows beyond its RPT (y-neighbours; the box's edge rows read the neighbour's face
/// from the global face grid instead) and 2 RPT for the x-neighbours.
/// In place: the new values of G planes wait in registers until every thread has read
/// those planes (one block barrier), then overwrite them; the planes the next group reads
/// are still old, and a column's own old values below come from registers.
template <int N, int BY, int BZ, int RPT, int G>
__global__ void __launch_bounds__(N * BY / RPT, 1)
    persistent(const float* __restrict__ initial, float* face0, float* face1, float* out, int steps) {
  extern __shared__ float box[];  // [BZ][BY][N + 2]
  constexpr int W = N + 2, T = N * BY / RPT, Q = BY / RPT;
  static_assert(N % 32 == 0 && BY % RPT == 0 && N % BY == 0, "a warp covers 32 columns of one row group");
  const int z0 = (blockIdx.x / (N / BY)) * BZ, y0 = (blockIdx.x % (N / BY)) * BY;
  const int bz = N % BZ == 0 ? BZ : min(BZ, N - z0);  // a constant where the boxes are equal
  const int x = threadIdx.x % N, q = threadIdx.x / N, row0 = q * RPT;
  const bool lo_edge = q == 0, hi_edge = q == Q - 1;  // warp-uniform
  auto grid = cg::this_grid();

  for (int i = threadIdx.x; i < bz * BY * W; i += T) {
    const int xx = i % W - 1, ly = (i / W) % BY, lz = i / (W * BY);
    const float v = initial[at<N>(xx, y0 + ly, z0 + lz)];
    box[i] = v;
    if (xx >= 0 && xx < N && (ly == 0 || ly == BY - 1 || lz == 0 || lz == bz - 1))
      __stcg(face0 + at<N>(xx, y0 + ly, z0 + lz), v);  // faces at time 0
  }
  __syncthreads();
  grid.sync();

  auto sh = [&](int ly, int lz) -> float* { return box + (lz * BY + ly) * W + x + 1; };
  for (int t = 0; t < steps; ++t) {
    const float* g = (t & 1) ? face1 : face0;  // faces at time t
    float* next = (t & 1) ? face0 : face1;     // this box's faces at time t + 1
    float below[RPT], mid[RPT], above[RPT];
#pragma unroll
    for (int r = 0; r < RPT; ++r) {
      below[r] = __ldcg(g + at<N>(x, y0 + row0 + r, z0 - 1));
      mid[r] = *sh(row0 + r, 0);
    }
    for (int first = 0; first < bz; first += G) {
      float nv[G][RPT];
#pragma unroll
      for (int j = 0; j < G; ++j) {
        const int lz = first + j;
        if (lz >= bz) break;
#pragma unroll
        for (int r = 0; r < RPT; ++r)
          above[r] = lz + 1 < bz ? *sh(row0 + r, lz + 1) : __ldcg(g + at<N>(x, y0 + row0 + r, z0 + bz));
        const float ym = lo_edge ? __ldcg(g + at<N>(x, y0 - 1, z0 + lz)) : *sh(row0 - 1, lz);
        const float yp = hi_edge ? __ldcg(g + at<N>(x, y0 + BY, z0 + lz)) : *sh(row0 + RPT, lz);
#pragma unroll
        for (int r = 0; r < RPT; ++r) {
          const float* c = sh(row0 + r, lz);
          const float up = r == 0 ? ym : mid[r - 1], dn = r == RPT - 1 ? yp : mid[r + 1];
          const float s = ((((c[-1] + c[1]) + up) + dn) + below[r]) + above[r];
          nv[j][r] = c0 * mid[r] + c1 * s;
        }
#pragma unroll
        for (int r = 0; r < RPT; ++r) below[r] = mid[r], mid[r] = above[r];
      }
      __syncthreads();  // every thread has read these G planes
#pragma unroll
      for (int j = 0; j < G; ++j) {
        const int lz = first + j;
        if (lz >= bz) break;
#pragma unroll
        for (int r = 0; r < RPT; ++r) {
          *sh(row0 + r, lz) = nv[j][r];
          const int ly = row0 + r;
          if (ly == 0 || ly == BY - 1 || lz == 0 || lz == bz - 1) __stcg(next + at<N>(x, y0 + ly, z0 + lz), nv[j][r]);
        }
      }
    }
    __syncthreads();
    grid.sync();  // every box's faces at time t + 1 are published
  }

  for (int i = threadIdx.x; i < bz * BY * W; i += T) {
    const int xx = i % W - 1, ly = (i / W) % BY, lz = i / (W * BY);
    if (xx >= 0 && xx < N) out[at<N>(xx, y0 + ly, z0 + lz)] = box[i];
  }
}

/// The same box with each thread's 8 rows as two 16-byte vectors: shared memory holds
/// [plane][row group][half][column] float4s (rows 8q..8q+3, then 8q+4..8q+7), so the plane
/// above, the x-neighbours and the new values move 4 rows an instruction (LDS.128/STS.128,
/// a warp's 32 columns 512 contiguous bytes), where the scalar layout takes one a row. Only
/// the rows just beyond a thread's 8 are scalar reads (of the neighbouring group's vector).
template <int N, int BY, int BZ, int G>
__global__ void __launch_bounds__(N * BY / 8, 1)
    persistent_v4(const float* __restrict__ initial, float* face0, float* face1, float* out, int steps) {
  extern __shared__ float4 box4[];  // [BZ][Q][2][N + 2]
  constexpr int W = N + 2, T = N * BY / 8, Q = BY / 8;
  static_assert(N % 32 == 0 && BY % 8 == 0 && N % BY == 0, "a warp covers 32 columns of one row group");
  float* const boxf = reinterpret_cast<float*>(box4);
  const int z0 = (blockIdx.x / (N / BY)) * BZ, y0 = (blockIdx.x % (N / BY)) * BY;
  const int bz = N % BZ == 0 ? BZ : min(BZ, N - z0);
  const int x = threadIdx.x % N, q = threadIdx.x / N;
  auto grid = cg::this_grid();
  // the float of (xx, ly, lz), xx from -1 to N
  auto at_f = [&](int xx, int ly, int lz) {
    return ((((lz * Q + ly / 8) * 2 + (ly % 8) / 4) * W + xx + 1) * 4) + ly % 4;
  };
  for (int i = threadIdx.x; i < bz * BY * W; i += T) {
    const int xx = i % W - 1, ly = (i / W) % BY, lz = i / (W * BY);
    const float v = initial[at<N>(xx, y0 + ly, z0 + lz)];
    boxf[at_f(xx, ly, lz)] = v;
    if (xx >= 0 && xx < N && (ly == 0 || ly == BY - 1 || lz == 0 || lz == bz - 1))
      __stcg(face0 + at<N>(xx, y0 + ly, z0 + lz), v);
  }
  __syncthreads();
  grid.sync();

  // the two vectors of this thread's rows at plane lz, column x + dx
  auto vec = [&](int lz, int dx, int h) -> float4& { return box4[((lz * Q + q) * 2 + h) * W + x + 1 + dx]; };
  auto rows8 = [](const float4& a, const float4& b, float (&r)[8]) {
    r[0] = a.x, r[1] = a.y, r[2] = a.z, r[3] = a.w, r[4] = b.x, r[5] = b.y, r[6] = b.z, r[7] = b.w;
  };
  for (int t = 0; t < steps; ++t) {
    const float* g = (t & 1) ? face1 : face0;
    float* next = (t & 1) ? face0 : face1;
    float below[8], mid[8], above[8];
#pragma unroll
    for (int r = 0; r < 8; ++r) below[r] = __ldcg(g + at<N>(x, y0 + 8 * q + r, z0 - 1));
    rows8(vec(0, 0, 0), vec(0, 0, 1), mid);
    for (int first = 0; first < bz; first += G) {
      float nv[G][8];
#pragma unroll
      for (int j = 0; j < G; ++j) {
        const int lz = first + j;
        if (lz >= bz) break;
        if (lz + 1 < bz) {
          rows8(vec(lz + 1, 0, 0), vec(lz + 1, 0, 1), above);
        } else {
#pragma unroll
          for (int r = 0; r < 8; ++r) above[r] = __ldcg(g + at<N>(x, y0 + 8 * q + r, z0 + bz));
        }
        float xm[8], xp[8];
        rows8(vec(lz, -1, 0), vec(lz, -1, 1), xm);
        rows8(vec(lz, 1, 0), vec(lz, 1, 1), xp);
        const float ym = q == 0 ? __ldcg(g + at<N>(x, y0 - 1, z0 + lz))
                                : boxf[(((lz * Q + q - 1) * 2 + 1) * W + x + 1) * 4 + 3];
        const float yp = q == Q - 1 ? __ldcg(g + at<N>(x, y0 + BY, z0 + lz))
                                    : boxf[(((lz * Q + q + 1) * 2 + 0) * W + x + 1) * 4 + 0];
#pragma unroll
        for (int r = 0; r < 8; ++r) {
          const float up = r == 0 ? ym : mid[r - 1], dn = r == 7 ? yp : mid[r + 1 < 8 ? r + 1 : r];
          const float s = ((((xm[r] + xp[r]) + up) + dn) + below[r]) + above[r];
          nv[j][r] = c0 * mid[r] + c1 * s;
        }
#pragma unroll
        for (int r = 0; r < 8; ++r) below[r] = mid[r], mid[r] = above[r];
      }
      __syncthreads();  // every thread has read these planes
#pragma unroll
      for (int j = 0; j < G; ++j) {
        const int lz = first + j;
        if (lz >= bz) break;
        vec(lz, 0, 0) = make_float4(nv[j][0], nv[j][1], nv[j][2], nv[j][3]);
        vec(lz, 0, 1) = make_float4(nv[j][4], nv[j][5], nv[j][6], nv[j][7]);
        if (q == 0) __stcg(next + at<N>(x, y0, z0 + lz), nv[j][0]);
        if (q == Q - 1) __stcg(next + at<N>(x, y0 + BY - 1, z0 + lz), nv[j][7]);
        if (lz == 0 || lz == bz - 1)
#pragma unroll
          for (int r = 0; r < 8; ++r) __stcg(next + at<N>(x, y0 + 8 * q + r, z0 + lz), nv[j][r]);
      }
    }
    __syncthreads();
    grid.sync();
  }

  for (int i = threadIdx.x; i < bz * BY * W; i += T) {
    const int xx = i % W - 1, ly = (i / W) % BY, lz = i / (W * BY);
    if (xx >= 0 && xx < N) out[at<N>(xx, y0 + ly, z0 + lz)] = boxf[at_f(xx, ly, lz)];
  }
}

/// A grid barrier a step and nothing else: the floor under any one-barrier-a-step design.
__global__ void barriers_only(int steps) {
  auto grid = cg::this_grid();
  for (int t = 0; t < steps; ++t) grid.sync();
}

/// Layout 0: the scalar box (RPT rows a thread); 1: the float4 box (8 rows a thread, RPT ignored).
template <int N, int BY, int BZ, int RPT, int G, int Layout = 0>
void run(int steps, double floor_gcells) {
  constexpr int threads = N * BY / (Layout ? 8 : RPT);
  const int nby = (N + BY - 1) / BY, nbz = (N + BZ - 1) / BZ, blocks = nby * nbz;
  const size_t shared = size_t(BZ) * BY * (N + 2) * sizeof(float);
  const long total = long(N + 2) * (N + 2) * (N + 2);
  auto kernel = [] {
    if constexpr (Layout == 1) return persistent_v4<N, BY, BZ, G>;
    else return persistent<N, BY, BZ, RPT, G>;
  }();
  CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(shared)));
  int per_sm = 0, sms = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, shared));
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  cudaFuncAttributes attr;
  CK(cudaFuncGetAttributes(&attr, kernel));
  std::printf("%s%d^3: boxes %d x %d x %d, %d blocks (%d fit: %d an SM), %zu KiB shared, regs %d spill %zu B\n", Layout ? "float4 rows: " : "", N, N, BY,
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
  {  // the grid barrier alone: 100 steps of nothing else, 132 blocks of 768 threads
    int steps = 100, sms = 0;
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    void* args[] = {&steps};
    const float ms = median_ms(
        [&](int) { CK(cudaLaunchCooperativeKernel((void*)barriers_only, sms, 768, args, 0, 0)); }, 7);
    std::printf("grid barrier alone: %.2f us a step (%d blocks of 768 threads)\n", ms * 1e3 / steps, sms);
  }
  // N, rows a box, planes a box, rows a thread, planes between block barriers
  run<192, 16, 18, 8, 6>(100, floor_gcells);   // 12 x 11 = 132 boxes of 218 KiB (the last 12 planes)
  run<192, 24, 12, 8, 6>(100, floor_gcells);   // 8 x 16 = 128 equal boxes of 218 KiB
  run<192, 24, 12, 8, 4>(100, floor_gcells);
  run<192, 24, 12, 12, 4>(100, floor_gcells);
  run<192, 24, 12, 12, 6>(100, floor_gcells);
  run<192, 24, 12, 6, 6>(100, floor_gcells);
  run<192, 24, 12, 24, 3>(100, floor_gcells);
  run<160, 16, 13, 4, 7>(100, floor_gcells);   // 10 x 13 = 130 boxes (the last 4 planes)
  run<160, 20, 10, 5, 5>(100, floor_gcells);   // 8 x 16 = 128 equal boxes
  run<160, 20, 10, 10, 5>(100, floor_gcells);
  run<160, 20, 10, 10, 10>(100, floor_gcells);
  run<128, 8, 16, 4, 8>(100, floor_gcells);    // 16 x 8 = 128 boxes
  run<128, 8, 16, 1, 8>(100, floor_gcells);
  run<128, 16, 8, 2, 8>(100, floor_gcells);
  run<128, 16, 8, 4, 4>(100, floor_gcells);
  // the float4 layout: N, rows a box, planes a box, (8 rows a thread), planes between barriers
  run<192, 16, 18, 8, 6, 1>(100, floor_gcells);
  run<192, 16, 18, 8, 3, 1>(100, floor_gcells);
  run<192, 24, 12, 8, 4, 1>(100, floor_gcells);
  run<192, 24, 12, 8, 6, 1>(100, floor_gcells);
  run<160, 16, 13, 8, 7, 1>(100, floor_gcells);
  run<160, 32, 7, 8, 7, 1>(100, floor_gcells);   // 5 x 23 = 115 boxes
  run<128, 16, 8, 8, 4, 1>(100, floor_gcells);
  run<128, 8, 16, 8, 8, 1>(100, floor_gcells);
  return 0;
}
