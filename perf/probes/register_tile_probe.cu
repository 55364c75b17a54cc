// Probe (not part of the build): the next design of the 3D fused pass for the 7-point
// star, fp32, Dirichlet faces: a register tile of 2 x-columns x RY y-rows a thread, one
// warp per 64-column row of the tile (so every x-neighbour comes from a warp shuffle or the
// thread's own registers), shared memory only for the y-neighbours across warps (each warp
// publishes its top and bottom rows), and the step's code free of selects in blocks whose
// tile lies inside the grid along x and y. Measures K-step passes on 512^3 against K
// separate naive sweeps (correctness) and against the copy floor, for the K, RY and chunks
// listed in main. Behind perf/log/run-42.md.
//   nvcc -O3 -std=c++17 -gencode arch=compute_90,code=sm_90 -Xptxas -v \
//     perf/probes/register_tile_probe.cu -o register_tile_probe && ./register_tile_probe
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <type_traits>
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

/// K fused steps; a block of 32 x (TY / RY) threads owns a TX x TY tile and marches along z
/// over `chunk` output planes. Level t (1..K) computes plane z0 - K + s - 2t at step s.
template <int K, int RY, int TY, int MinBlocks, int AH>
__global__ void __launch_bounds__(32 * (TY / RY), MinBlocks)
    rt_pass(const float* __restrict__ in, float* __restrict__ out, const int chunk) {
  constexpr int BY = TY / RY, OX = TX - 2 * K, OY = TY - 2 * K;
  constexpr int SLOTS = 2 * BY + 2;  // published rows: a zero border, each warp's top and bottom, a zero border
  constexpr int PLANE = SLOTS * TX;
  extern __shared__ __align__(16) float sh[];  // [level 0..K-1][2 buffers][SLOTS][TX]
  const int lane = threadIdx.x, wy = threadIdx.y;
  const int tile_x = blockIdx.x * OX - K, tile_y = blockIdx.y * OY - K;
  const int x0 = tile_x + lane * CX, y0 = tile_y + wy * RY;
  const int z0 = blockIdx.z * chunk, zend = min(z0 + chunk, N);

  unsigned fixed = 0, stores = 0;  // bit r * CX + c
#pragma unroll
  for (int r = 0; r < RY; ++r)
#pragma unroll
    for (int c = 0; c < CX; ++c) {
      const int gx = x0 + c, gy = y0 + r, tx = lane * CX + c, ty = wy * RY + r;
      const bool inside = gx >= 0 && gx < N && gy >= 0 && gy < N;
      fixed |= (inside ? 0u : 1u) << (r * CX + c);
      stores |= (inside && tx >= K && tx < TX - K && ty >= K && ty < TY - K ? 1u : 0u) << (r * CX + c);
    }
  const bool edge_block = tile_x < 0 || tile_x + TX > N || tile_y < 0 || tile_y + TY > N;

  for (int i = wy * 32 + lane; i < K * 2 * PLANE; i += 32 * BY) sh[i] = 0.f;

  float q[K][3][RY][CX];  // level t's planes m - 1, m, m + 1 (m + 1 the newest)
#pragma unroll
  for (int t = 0; t < K; ++t)
#pragma unroll
    for (int j = 0; j < 3; ++j)
#pragma unroll
      for (int r = 0; r < RY; ++r)
#pragma unroll
        for (int c = 0; c < CX; ++c) q[t][j][r][c] = 0.f;
  const int base = z0 - K;
  const float* src = in + at(base, y0, x0);  // row 0, column 0 of the plane loaded next
  float ahead[AH][RY][CX];  // level 0's next AH planes, loaded AH steps before their use
#pragma unroll
  for (int a = 0; a < AH; ++a, src += PL)
#pragma unroll
    for (int r = 0; r < RY; ++r)
#pragma unroll
      for (int c = 0; c < CX; ++c) ahead[a][r][c] = __ldg(src + r * P + c);
  float* dst = out + at(base - 2 * K, y0, x0);  // level K's plane at step 0
  __syncthreads();

  const int steps_total = (zend - z0) + 3 * K;
  // steps whose levels all lie on interior planes: level K's plane >= 0 and level 1's < N
  const int inner_begin = max(0, 3 * K - z0), inner_end = min(steps_total, N + K + 2 - z0);

  auto step = [&](auto slow_c, const int s) {
    constexpr bool slow = decltype(slow_c)::value;
    const int rb = (s + 1) & 1, wb = s & 1;
    float top[RY][CX];
#pragma unroll
    for (int t = K; t >= 1; --t) {
      const float* pb = sh + ((t - 1) * 2 + rb) * PLANE + lane * CX;
      const float2 up = *reinterpret_cast<const float2*>(pb + (2 * wy) * TX);
      const float2 dn = *reinterpret_cast<const float2*>(pb + (2 * wy + 3) * TX);
      bool plane_fixed = false;
      if (slow) plane_fixed = static_cast<unsigned>(base + s - 2 * t) >= static_cast<unsigned>(N);
      float v[RY][CX];
#pragma unroll
      for (int r = 0; r < RY; ++r) {
        const float* cr = q[t - 1][1][r];
        const float left = __shfl_up_sync(0xffffffffu, cr[CX - 1], 1);
        const float right = __shfl_down_sync(0xffffffffu, cr[0], 1);
#pragma unroll
        for (int c = 0; c < CX; ++c) {
          const float yl = r > 0 ? q[t - 1][1][r - 1][c] : (c == 0 ? up.x : up.y);
          const float yh = r + 1 < RY ? q[t - 1][1][r + 1][c] : (c == 0 ? dn.x : dn.y);
          const float xl = c > 0 ? cr[c - 1] : left;
          const float xh = c + 1 < CX ? cr[c + 1] : right;
          float w = c7[0] * cr[c] + c7[1] * q[t - 1][0][r][c] + c7[2] * q[t - 1][2][r][c] + c7[3] * yl + c7[4] * yh +
                    c7[5] * xl + c7[6] * xh;
          if (slow && (plane_fixed || ((fixed >> (r * CX + c)) & 1u))) w = cr[c];
          v[r][c] = w;
        }
      }
#pragma unroll
      for (int r = 0; r < RY; ++r)
#pragma unroll
        for (int c = 0; c < CX; ++c) {
          if (t == K) {
            top[r][c] = v[r][c];
          } else {
            q[t][0][r][c] = q[t][1][r][c];
            q[t][1][r][c] = q[t][2][r][c];
            q[t][2][r][c] = v[r][c];
          }
        }
    }
    const int top_plane = base + s - 2 * K;
    if (top_plane >= z0 && top_plane < zend) {
#pragma unroll
      for (int r = 0; r < RY; ++r)
#pragma unroll
        for (int c = 0; c < CX; ++c)
          if ((stores >> (r * CX + c)) & 1u) dst[r * P + c] = top[r][c];
    }
    dst += PL;
#pragma unroll
    for (int r = 0; r < RY; ++r)
#pragma unroll
      for (int c = 0; c < CX; ++c) {
        q[0][0][r][c] = q[0][1][r][c];
        q[0][1][r][c] = q[0][2][r][c];
        q[0][2][r][c] = ahead[0][r][c];
#pragma unroll
        for (int a = 0; a + 1 < AH; ++a) ahead[a][r][c] = ahead[a + 1][r][c];
        ahead[AH - 1][r][c] = __ldg(src + r * P + c);
      }
    src += PL;
    // publish each level's centre plane: the warp's top and bottom rows
#pragma unroll
    for (int t = 0; t < K; ++t) {
      float* pw = sh + (t * 2 + wb) * PLANE + lane * CX;
      *reinterpret_cast<float2*>(pw + (2 * wy + 1) * TX) = make_float2(q[t][1][0][0], q[t][1][0][1]);
      *reinterpret_cast<float2*>(pw + (2 * wy + 2) * TX) = make_float2(q[t][1][RY - 1][0], q[t][1][RY - 1][1]);
    }
    __syncthreads();
  };

  int s = 0;
  if (edge_block) {
#pragma unroll 1
    for (; s < steps_total; ++s) step(std::true_type{}, s);
  } else {
    const int fast_begin = inner_begin + (inner_begin & 1);  // even: the buffers' parity is known in the body
#pragma unroll 1
    for (; s < fast_begin; ++s) step(std::true_type{}, s);
#pragma unroll 1
    for (; s + 6 <= inner_end; s += 6) {
      step(std::false_type{}, s);
      step(std::false_type{}, s + 1);
      step(std::false_type{}, s + 2);
      step(std::false_type{}, s + 3);
      step(std::false_type{}, s + 4);
      step(std::false_type{}, s + 5);
    }
#pragma unroll 1
    for (; s < steps_total; ++s) step(std::true_type{}, s);
  }
}

template <int K, int RY, int TY, int MinBlocks, int AH = 3>
void run_case(float* a, float* b, const std::vector<float>& ref, const std::vector<float>& init, double floor_gcells) {
  constexpr int BY = TY / RY, OX = TX - 2 * K, OY = TY - 2 * K;
  const size_t shared = size_t(K) * 2 * (2 * BY + 2) * TX * sizeof(float);
  auto kernel = rt_pass<K, RY, TY, MinBlocks, AH>;
  CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(shared)));
  cudaFuncAttributes attr;
  CK(cudaFuncGetAttributes(&attr, kernel));
  int per_sm = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, 32 * BY, shared));
  for (int chunk : {64, 86, 103, 128, 171, 256}) {
    const dim3 grid((N + OX - 1) / OX, (N + OY - 1) / OY, (N + chunk - 1) / chunk), block(32, BY);
    // correctness: one pass of K steps against K naive sweeps
    CK(cudaMemcpy(a, init.data(), TOT * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(b, init.data(), TOT * sizeof(float), cudaMemcpyHostToDevice));
    kernel<<<grid, block, shared>>>(a, b, chunk);
    CK(cudaDeviceSynchronize());
    std::vector<float> got(TOT);
    CK(cudaMemcpy(got.data(), b, TOT * sizeof(float), cudaMemcpyDeviceToHost));
    double worst = 0;
    long bad = 0;
    for (int z = 0; z < N; ++z)
      for (int y = 0; y < N; ++y)
        for (int x = 0; x < N; ++x) {
          const long i = at(z, y, x);
          const double e = std::fabs(double(got[i]) - double(ref[i]));
          worst = std::max(worst, e);
          if (!(e <= 1e-5)) ++bad;
        }
    // timing: passes back and forth (results no longer checked), per step
    const int passes = 100 / K;
    const float ms = median_ms(
        [&](int) {
          for (int i = 0; i < passes; ++i) kernel<<<grid, block, shared>>>(i & 1 ? b : a, i & 1 ? a : b, chunk);
        },
        5);
    const double per_step = ms / (passes * K);
    const double gc = double(N) * N * N / (per_step * 1e6);
    std::printf("K=%d RY=%d tile %dx%d minblocks %d ahead %d: regs %d spill %zu B, %d blocks/SM, chunk %3d: %7.1f GCell/s "
                "(%.2fx floor) worst err %.2e, %ld cells off %s\n",
                K, RY, TX, TY, MinBlocks, AH, attr.numRegs, size_t(attr.localSizeBytes), per_sm, chunk, gc,
                gc / floor_gcells, worst, bad, bad ? "WRONG" : "ok");
  }
}

int main() {
  std::vector<float> init(TOT);
  unsigned seed = 12345;
  for (long i = 0; i < TOT; ++i) {
    seed = seed * 1664525u + 1013904223u;
    init[i] = float(seed >> 8) / float(1 << 24) - 0.5f;
  }
  const float coef[7] = {0.4f, 0.1f, 0.1f, 0.1f, 0.1f, 0.1f, 0.1f};
  CK(cudaMemcpyToSymbol(c7, coef, sizeof coef));
  float *a, *b;
  CK(cudaMalloc(&a, TOT * sizeof(float)));
  CK(cudaMalloc(&b, TOT * sizeof(float)));
  // the copy floor on this card: cudaMemcpy of one field, read + write
  const float copy_ms = median_ms([&](int) { cudaMemcpy(b, a, TOT * sizeof(float), cudaMemcpyDeviceToDevice); }, 9);
  const double copy_gbs = 2.0 * TOT * sizeof(float) / (copy_ms * 1e6);
  const double floor_gcells = copy_gbs / (2 * sizeof(float));
  std::printf("copy %.0f GB/s, one-sweep floor %.1f GCell/s (fp32)\n", copy_gbs, floor_gcells);

  // the reference results for K = 1..4 steps: naive sweeps from init
  std::vector<std::vector<float>> ref(5, std::vector<float>(TOT));
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

  run_case<2, 4, 32, 2, 3>(a, b, ref[2], init, floor_gcells);
  run_case<3, 4, 32, 2, 3>(a, b, ref[3], init, floor_gcells);
  run_case<3, 4, 32, 2, 2>(a, b, ref[3], init, floor_gcells);
  run_case<3, 4, 32, 2, 1>(a, b, ref[3], init, floor_gcells);
  run_case<4, 4, 32, 1, 3>(a, b, ref[4], init, floor_gcells);
  run_case<4, 4, 32, 2, 2>(a, b, ref[4], init, floor_gcells);
  run_case<3, 2, 16, 2, 3>(a, b, ref[3], init, floor_gcells);
  run_case<3, 4, 64, 1, 2>(a, b, ref[3], init, floor_gcells);
  CK(cudaFree(a));
  CK(cudaFree(b));
  return 0;
}
