// Probe (not part of the build): the next design of the 3D fused pass for the 7-point
// star, fp32, Dirichlet faces: a register tile of 2 x-columns x RY y-rows a thread, one
// warp per 64-column row of the tile (so every x-neighbour comes from a warp shuffle or the
// thread's own registers), shared memory only for the y-neighbours across warps (each warp
// publishes its top and bottom rows), and the step's code free of selects in blocks whose
// tile lies inside the grid along x and y. Measures K-step passes on 512^3 against K
// separate naive sweeps (correctness) and against the copy floor, for the K, RY and chunks
// listed in main. Behind perf/log/run-42.md. `--async` runs only the variant whose level 0
// arrives by cp.async into a shared ring (Async): run-42 found the register feed latency-
// bound at 16 warps an SM, loading 2-3 planes ahead costing the registers that keep two
// blocks an SM; the ring's planes in flight cost shared memory instead (not yet run on a
// GPU: ptxas on the build VM gives K = 3 two blocks an SM 1-2 planes ahead with no spill).
//   nvcc -O3 -std=c++17 -gencode arch=compute_90,code=sm_90 -Xptxas -v \
//     perf/probes/register_tile_probe.cu -o register_tile_probe && ./register_tile_probe
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <type_traits>
#include <vector>

#include "register_tile_grid.cuh"

__device__ inline void copy16_async(float* shared_dst, const float* global_src) {
  const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(shared_dst));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(s), "l"(global_src) : "memory");
}
__device__ inline void commit_async() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
template <int Pending>
__device__ inline void wait_async() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(Pending) : "memory");
}

/// Level 0's ring where it is fed by cp.async (Async): a tile plane widened to whole 16-byte
/// pieces (TX + 4 floats a row from the 16-byte boundary at or before the tile's first
/// column), AH + 1 slots after the published rows.
template <int TY>
struct ring0 {
  static constexpr int row = TX + 4, pieces_per_row = row / 4, pieces = pieces_per_row * TY, slot = row * TY;
};

/// K fused steps; a block of 32 x (TY / RY) threads owns a TX x TY tile and marches along z
/// over `chunk` output planes. Level t (1..K) computes plane z0 - K + s - 2t at step s.
/// Level 0's planes are loaded AH steps before their use: into registers, or (Async) by
/// cp.async into ring slot s % (AH + 1) for plane base + s.
template <int K, int RY, int TY, int MinBlocks, int AH, bool Async = false>
__global__ void __launch_bounds__(32 * (TY / RY), MinBlocks)
    rt_pass(const float* __restrict__ in, float* __restrict__ out, const int chunk) {
  constexpr int BY = TY / RY, OX = TX - 2 * K, OY = TY - 2 * K;
  constexpr int SLOTS = 2 * BY + 2;  // published rows: a zero border, each warp's top and bottom, a zero border
  constexpr int PLANE = SLOTS * TX;
  using ring = ring0<TY>;
  extern __shared__ __align__(16) float sh[];  // [level 0..K-1][2 buffers][SLOTS][TX], then (Async) the ring
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
  float ahead[Async ? 1 : AH][RY][CX];  // level 0's next AH planes, loaded AH steps before their use
  // Async: this thread's pieces of a plane, piece i = row i / pieces_per_row, 4 floats from
  // column ax + 4 (i % pieces_per_row), worked out at each copy (a table of them would hold
  // registers the queues need)
  float* const ring_sh = sh + K * 2 * PLANE;
  const int ax = ((tile_x + PADX) & ~3) - PADX;  // the ring's first column: a 16-byte boundary
  const float* plane_src = in + at(base, tile_y, ax);  // the next plane's first piece
  auto copy_plane = [&](int slot) {
    constexpr int per_thread = (ring::pieces + 32 * BY - 1) / (32 * BY);
#pragma unroll
    for (int k = 0; k < per_thread; ++k) {
      const int i = wy * 32 + lane + k * 32 * BY;
      const int row = i / ring::pieces_per_row, col = 4 * (i - row * ring::pieces_per_row);
      if ((k + 1) * 32 * BY <= ring::pieces || i < ring::pieces)
        copy16_async(ring_sh + slot * ring::slot + row * ring::row + col, plane_src + row * P + col);
    }
    commit_async();
    plane_src += PL;
  };
  if constexpr (Async) {
#pragma unroll
    for (int a = 0; a < AH; ++a) copy_plane(a);
    wait_async<AH - 1>();  // plane base landed (this thread's pieces; the barrier below: everyone's)
  } else {
#pragma unroll
    for (int a = 0; a < AH; ++a, src += PL)
#pragma unroll
      for (int r = 0; r < RY; ++r)
#pragma unroll
        for (int c = 0; c < CX; ++c) ahead[a][r][c] = __ldg(src + r * P + c);
  }
  const float* mine = ring_sh + (wy * RY) * ring::row + (x0 - ax);  // Async: row 0, column 0 of this thread in slot 0
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
    if constexpr (Async) {
      const float* fresh = mine + (s % (AH + 1)) * ring::slot;  // plane base + s
#pragma unroll
      for (int r = 0; r < RY; ++r) {
        float nv[CX];
        if constexpr (K % 2 == 0) {  // tile_x even: this thread's two columns on 8 bytes
          const float2 v = *reinterpret_cast<const float2*>(fresh + r * ring::row);
          nv[0] = v.x, nv[1] = v.y;
        } else {
#pragma unroll
          for (int c = 0; c < CX; ++c) nv[c] = fresh[r * ring::row + c];
        }
#pragma unroll
        for (int c = 0; c < CX; ++c) {
          q[0][0][r][c] = q[0][1][r][c];
          q[0][1][r][c] = q[0][2][r][c];
          q[0][2][r][c] = nv[c];
        }
      }
      // plane base + s + AH into the slot plane base + s - 1 held (read last step, before
      // the barrier that ended it); then plane base + s + 1 has landed for this thread
      copy_plane((s + AH) % (AH + 1));
      wait_async<AH - 1>();
    } else {
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
    }
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

template <int K, int RY, int TY, int MinBlocks, int AH = 3, bool Async = false>
void run_case(probe_grid& g) {
  constexpr int BY = TY / RY, OX = TX - 2 * K, OY = TY - 2 * K;
  const size_t shared =
      (size_t(K) * 2 * (2 * BY + 2) * TX + (Async ? size_t(AH + 1) * ring0<TY>::slot : 0)) * sizeof(float);
  char label[96];
  std::snprintf(label, sizeof label, "%sK=%d RY=%d tile %dx%d minblocks %d ahead %d", Async ? "async " : "", K, RY, TX,
                TY, MinBlocks, AH);
  check_and_time(label, rt_pass<K, RY, TY, MinBlocks, AH, Async>, K, OX, OY, dim3(32, BY), shared, g);
}

int main(int argc, char** argv) {
  probe_grid g;
  const bool async_only = argc > 1 && std::string(argv[1]) == "--async";
  if (!async_only) {  // run-42's cases
    run_case<2, 4, 32, 2, 3>(g);
    run_case<3, 4, 32, 2, 3>(g);
    run_case<3, 4, 32, 2, 2>(g);
    run_case<3, 4, 32, 2, 1>(g);
    run_case<4, 4, 32, 1, 3>(g);
    run_case<4, 4, 32, 2, 2>(g);
    run_case<3, 2, 16, 2, 3>(g);
    run_case<3, 4, 64, 1, 2>(g);
  }
  // level 0 by cp.async: K = 3 holds two blocks an SM 1-3 planes ahead without the spills
  // of the register feed; K = 4 needs 96 registers for its queues alone (one block an SM)
  run_case<3, 4, 32, 2, 1, true>(g);
  run_case<3, 4, 32, 2, 2, true>(g);
  run_case<3, 4, 32, 2, 3, true>(g);
  run_case<4, 4, 32, 1, 2, true>(g);
  run_case<4, 4, 32, 1, 4, true>(g);
  run_case<3, 4, 64, 1, 2, true>(g);
  run_case<3, 4, 64, 1, 4, true>(g);
  return 0;
}
