// Probe (not part of the build; perf/log/run-53.md): a register tile for the 3D fused pass of boxes (and stars),
// K time steps in one pass. Each thread computes Rows x Cols cells of every level (Cols one
// 16-byte vector); a level keeps partial sums of the outputs the newest plane of the level
// below feeds (as cuda::temporal_blocking's box pass does), reading that plane from shared
// memory as vectors; level 0 arrives in a ring of D shared planes by cp.async, D - 1 steps
// ahead, so no register holds a plane in flight; one __syncthreads a step. Dirichlet faces:
// every cell outside the interior keeps its value; padding wide enough that no load is
// mapped. Each configuration is checked against K naive sweeps, then timed (median of 5 of
// `steps` steps). Self-contained:
//   nvcc -std=c++20 -O3 -gencode arch=compute_90,code=sm_90 -I perf/probes perf/probes/fused_box_probe.cu -o fused_box_probe
//   fused_box_probe [n] [steps] [mode]   (n: the cube's edge, default 512; steps default 96)
// modes: box (run 53's box table), star, all (both), chunks and chunks2 (chunks against
// waves, smaller blocks; not run yet), ncu32 / ncu64 (one configuration, one chunk: for
// Nsight Compute). The library's port: strategies/temporal_blocking/box_tile.cuh.
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "probe_timing.cuh"

template <class T>
struct params {
  const T* in;  // interior origin (0, 0, 0)
  T* out;
  long long sz, sy;
  int nz, ny, nx;
  T c[27];  // c[(dz + 1) * 9 + (dy + 1) * 3 + dx + 1]
};

template <class F, int... I>
__device__ __forceinline__ void sfor_impl(F&& f, std::integer_sequence<int, I...>) {
  (f(std::integral_constant<int, I>{}), ...);
}
template <int N, class F>
__device__ __forceinline__ void sfor(F&& f) {
  sfor_impl(f, std::make_integer_sequence<int, N>{});
}

// shape: box (27 points) or star (7)
template <bool Box>
__host__ __device__ constexpr bool has_point(int dz, int dy, int dx) {
  return Box || (dz == 0 && dy == 0) || (dz == 0 && dx == 0) || (dy == 0 && dx == 0);
}

template <bool Box, class T>
__global__ void naive_sweep(params<T> p) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y, z = blockIdx.z;
  if (x >= p.nx) return;
  const T* c = p.in + z * p.sz + y * p.sy + x;
  T v = 0;
  for (int dz = -1; dz <= 1; ++dz)
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx)
        if (has_point<Box>(dz, dy, dx)) v += p.c[(dz + 1) * 9 + (dy + 1) * 3 + dx + 1] * c[dz * p.sz + dy * p.sy + dx];
  p.out[z * p.sz + y * p.sy + x] = v;
}

__device__ __forceinline__ void cp_async16(void* smem, const void* gmem) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"((unsigned)__cvta_generic_to_shared(smem)),
               "l"(gmem)
               : "memory");
}
__device__ __forceinline__ void cp_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
template <int N>
__device__ __forceinline__ void cp_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}
__device__ __forceinline__ void store_if(float* a, float v, bool p) {
  asm volatile("{\n .reg .pred q;\n setp.ne.b32 q, %2, 0;\n @q st.global.f32 [%0], %1;\n}\n" ::"l"(a), "f"(v),
               "r"((int)p)
               : "memory");
}
__device__ __forceinline__ void store_if(double* a, double v, bool p) {
  asm volatile("{\n .reg .pred q;\n setp.ne.b32 q, %2, 0;\n @q st.global.f64 [%0], %1;\n}\n" ::"l"(a), "d"(v),
               "r"((int)p)
               : "memory");
}

template <class T> struct vec16;
template <> struct vec16<float> { using type = float4; };
template <> struct vec16<double> { using type = double2; };

template <class T>
__host__ __device__ constexpr int per_vec() { return 16 / sizeof(T); }

/// shared bytes of a configuration: D level-0 planes, two a level for levels 1 .. K - 1
template <class T, int K, int TileX, int TileY, int D>
constexpr int shared_bytes() {
  constexpr int V = per_vec<T>(), PX = TileX + 2 * V, PY = TileY + 2;
  return (D + 2 * (K - 1)) * PX * PY * (int)sizeof(T);
}

template <bool Box, class T, int K, int TileX, int TileY, int Rows, int D, int MinB>
__global__ void __launch_bounds__((TileX / per_vec<T>()) * (TileY / Rows), MinB)
    fused_pass(const params<T> p, const int chunk) {
  constexpr int V = per_vec<T>(), Cols = V;
  using vt = typename vec16<T>::type;
  constexpr int TX = TileX / Cols, TY = TileY / Rows, NT = TX * TY;
  constexpr int PX = TileX + 2 * V, PY = TileY + 2, PC = PX * PY;  // border: a vector a side, a row
  constexpr int out_x = (TileX - 2 * K) / V * V, out_y = TileY - 2 * K;  // outputs: whole vectors
  constexpr int A = D - 1;                      // level-0 planes in flight
  constexpr int NV = (PX / V) * PY;             // 16-byte pieces of a level-0 plane
  constexpr int LPT = (NV + NT - 1) / NT;       // pieces a thread
  constexpr int NC = Rows * Cols;
  static_assert(TileX % Cols == 0 && TileY % Rows == 0 && out_x % V == 0, "tile");
  static_assert((D & (D - 1)) == 0, "ring of a power of two");
  extern __shared__ __align__(16) unsigned char shared_raw[];
  T* const ring = reinterpret_cast<T*>(shared_raw);  // [D][PC]
  T* const pub = ring + D * PC;                       // [K - 1][2][PC]

  const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * TX + tx;
  const int x0 = blockIdx.x * out_x - K, y0 = blockIdx.y * out_y - K;  // the tile's first column and row
  const int z0 = blockIdx.z * chunk, z_end = min(z0 + chunk, p.nz), zb = z0 - K;

  // level-0 loads: piece i of a plane, row i / (PX / V), vector i % (PX / V)
  int g_off[LPT], s_off[LPT];
#pragma unroll
  for (int k = 0; k < LPT; ++k) {
    const int i = min(tid + k * NT, NV - 1), row = i / (PX / V), cv = i % (PX / V);
    g_off[k] = (y0 - 1 + row) * (int)p.sy + (x0 - V + cv * V);
    s_off[k] = row * PX + cv * V;
  }
  const int z_last_needed = z_end - 1 + K;
  auto load_plane = [&](int z, int slot) {
    if (z <= z_last_needed) {
      const T* g = p.in + (long long)z * p.sz;
      T* s = ring + slot * PC;
#pragma unroll
      for (int k = 0; k < LPT; ++k)
        if (k + 1 < LPT || tid + k * NT < NV) cp_async16(s + s_off[k], g + g_off[k]);
    }
    cp_commit();
  };
  for (int i = tid; i < 2 * (K - 1) * PC; i += NT) pub[i] = T(0);
#pragma unroll
  for (int a = 0; a < A; ++a) load_plane(zb + a, a);

  // the thread's cells: tile rows ty * Rows + r, columns tx * Cols + c
  const int own = (ty * Rows + 1) * PX + V + tx * Cols;  // row 0, column 0 in a plane
  unsigned fixed_xy = 0, stores_xy = 0;
#pragma unroll
  for (int r = 0; r < Rows; ++r)
#pragma unroll
    for (int c = 0; c < Cols; ++c) {
      const int ty_ = ty * Rows + r, tx_ = tx * Cols + c, gy = y0 + ty_, gx = x0 + tx_;
      const bool inside = gx >= 0 && gx < p.nx && gy >= 0 && gy < p.ny;
      fixed_xy |= inside ? 0u : 1u << (r * Cols + c);
      stores_xy |= inside && tx_ >= K && tx_ < K + out_x && ty_ >= K && ty_ < K + out_y ? 1u << (r * Cols + c) : 0u;
    }
  const bool block_inside = x0 >= 0 && x0 + TileX <= p.nx && y0 >= 0 && y0 + TileY <= p.ny;
  T* out_base = p.out + (long long)(y0 + ty * Rows) * p.sy + (x0 + tx * Cols);

  T acc[K][2][NC];  // acc[t-1][0]: level t's output P - 1 (planes P - 2, P - 1 added); [1]: output P
  T prev[K][NC];    // level t - 1's own cells at plane P - 1 (a fixed cell keeps it)
#pragma unroll
  for (int t = 0; t < K; ++t)
#pragma unroll
    for (int i = 0; i < NC; ++i) acc[t][0][i] = acc[t][1][i] = prev[t][i] = T(0);

  cp_wait<A - 1>();
  __syncthreads();

  // level t publishes plane O_t(s) = zb + s - 2t + 1 at step s; level K's is stored
  auto step = [&](const int s, auto selects_) {
    constexpr bool selects = decltype(selects_)::value;
#pragma unroll
    for (int t = 1; t <= K; ++t) {
      const T* below = t == 1 ? ring + (s & (D - 1)) * PC : pub + ((t - 2) * 2 + ((s + 1) & 1)) * PC;
      below += own;
      T done[NC], mid[NC], newest[NC], centre[NC];
#pragma unroll
      for (int i = 0; i < NC; ++i) done[i] = acc[t - 1][0][i], mid[i] = acc[t - 1][1][i], newest[i] = T(0);
      // input rows ty * Rows - 1 .. ty * Rows + Rows of the tile
      sfor<Rows + 2>([&](auto i_) {
        constexpr int i = decltype(i_)::value;  // input row: i - 1 relative to row 0
        const T* row = below + (i - 1) * PX;
        T v[Cols + 2];
        const vt w = *reinterpret_cast<const vt*>(row);
        if constexpr (V == 4) v[1] = w.x, v[2] = w.y, v[3] = w.z, v[4] = w.w;
        else v[1] = w.x, v[2] = w.y;
        constexpr bool own_row = i >= 1 && i <= Rows;
        if constexpr (Box || own_row) v[0] = row[-1], v[Cols + 1] = row[Cols];
        if constexpr (own_row) {
#pragma unroll
          for (int c = 0; c < Cols; ++c) centre[(i - 1) * Cols + c] = v[c + 1];
        }
        sfor<27>([&](auto k_) {
          constexpr int k = decltype(k_)::value;
          constexpr int dz = k / 9 - 1, dy = (k / 3) % 3 - 1, dx = k % 3 - 1;
          constexpr int r = i - 1 - dy;  // the output row this input row feeds with dy
          if constexpr (has_point<Box>(dz, dy, dx) && r >= 0 && r < Rows) {
#pragma unroll
            for (int c = 0; c < Cols; ++c) {
              const T term = p.c[k] * v[c + dx + 1];
              if constexpr (dz == 1) done[r * Cols + c] += term;        // output P - 1 reads P at dz = +1
              else if constexpr (dz == 0) mid[r * Cols + c] += term;    // output P
              else newest[r * Cols + c] = term + newest[r * Cols + c];  // output P + 1
            }
          }
        });
      });
      if constexpr (selects) {
        const int o = zb + s - 2 * t + 1;
        const unsigned keep = (o < 0 || o >= p.nz) ? ~0u : fixed_xy;
#pragma unroll
        for (int i = 0; i < NC; ++i)
          if ((keep >> i) & 1u) done[i] = prev[t - 1][i];
      }
#pragma unroll
      for (int i = 0; i < NC; ++i) {
        acc[t - 1][0][i] = mid[i], acc[t - 1][1][i] = newest[i];
        prev[t - 1][i] = centre[i];
      }
      if (t < K) {
        T* dst = pub + ((t - 1) * 2 + (s & 1)) * PC + own;
#pragma unroll
        for (int r = 0; r < Rows; ++r) {
          vt w;
          if constexpr (V == 4) w = make_float4(done[r * 4], done[r * 4 + 1], done[r * 4 + 2], done[r * 4 + 3]);
          else w = make_double2(done[r * 2], done[r * 2 + 1]);
          *reinterpret_cast<vt*>(dst + r * PX) = w;
        }
      } else {
        const int o = zb + s - 2 * K + 1;
        if (!selects || (o >= z0 && o < z_end)) {
          T* g = out_base + (long long)o * p.sz;
#pragma unroll
          for (int r = 0; r < Rows; ++r)
#pragma unroll
            for (int c = 0; c < Cols; ++c) store_if(g + r * p.sy + c, done[r * Cols + c], (stores_xy >> (r * Cols + c)) & 1u);
        }
      }
    }
    load_plane(zb + s + A, (s + A) & (D - 1));
    cp_wait<A - 1>();
    __syncthreads();
  };
  const int steps_total = z_end - z0 + 3 * K - 1;
  const int body_begin = 3 * K - 1;
  const int body_end = min(p.nz + 1 - zb, z_end - zb + 2 * K - 1);
  int s = 0;
  for (; s < body_begin; ++s) step(s, std::true_type{});
  if (block_inside)
    for (; s < body_end; ++s) step(s, std::false_type{});
  else
    for (; s < body_end; ++s) step(s, std::true_type{});
  for (; s < steps_total; ++s) step(s, std::true_type{});
}

// ---------------------------------------------------------------------------------------
static unsigned long long rng = 88172645463325252ULL;
static double urand() {
  rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
  return (rng >> 11) * (1.0 / 9007199254740992.0);
}

template <class T>
double max_err(const std::vector<T>& a, const std::vector<T>& b) {
  double e = 0;
  for (size_t i = 0; i < a.size(); ++i) e = std::max(e, (double)std::fabs((double)a[i] - (double)b[i]));
  return e;
}

template <bool Box, class T, int K, int TileX, int TileY, int Rows, int D, int MinB>
void run_config(int n, int steps, const T* coef, double floor_gcells, const std::vector<int>& chunks) {
  constexpr int V = per_vec<T>();
  // layout: origin at column GX with (GX - K - V) % V == 0 so every tile's first loaded
  // column (x0 - V, x0 = bx * out_x - K) is 16-byte aligned; pitch a multiple of V
  const int GX = K + V + 16, GY = K + 2, GZ = K + 2;
  constexpr int out_x = (TileX - 2 * K) / V * V, out_y = TileY - 2 * K;
  const int bx = (n + out_x - 1) / out_x, by = (n + out_y - 1) / out_y;
  long long pitch = GX + (long long)(bx - 1) * out_x - K + TileX + V + 16;
  pitch = (pitch + V - 1) / V * V;
  const long long rows = GY + (long long)(by - 1) * out_y - K + TileY + 4;
  const long long planes = n + 2 * GZ;
  const long long total = pitch * rows * planes;
  std::vector<T> h(total);
  for (auto& v : h) v = T(urand());
  T *a, *b, *r0, *r1;
  CK(cudaMalloc(&a, total * sizeof(T)));
  CK(cudaMalloc(&b, total * sizeof(T)));
  CK(cudaMalloc(&r0, total * sizeof(T)));
  CK(cudaMalloc(&r1, total * sizeof(T)));
  const long long origin = GZ * pitch * rows + GY * pitch + GX;
  auto upload = [&](T* d) { CK(cudaMemcpy(d, h.data(), total * sizeof(T), cudaMemcpyHostToDevice)); };
  params<T> p;
  p.sz = pitch * rows, p.sy = pitch, p.nz = p.ny = p.nx = n;
  for (int k = 0; k < 27; ++k) p.c[k] = coef[k];

  constexpr int smem = shared_bytes<T, K, TileX, TileY, D>();
  auto kernel = fused_pass<Box, T, K, TileX, TileY, Rows, D, MinB>;
  CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  cudaFuncAttributes fa;
  CK(cudaFuncGetAttributes(&fa, kernel));
  int per_sm = 0;
  const dim3 block(TileX / V, TileY / Rows);
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, block.x * block.y, smem));

  // the reference: K naive sweeps of the first pass's input
  upload(r0), upload(r1), upload(a), upload(b);
  for (int k = 0; k < K; ++k) {
    params<T> q = p;
    q.in = (k % 2 ? r1 : r0) + origin, q.out = (k % 2 ? r0 : r1) + origin;
    naive_sweep<Box, T><<<dim3((n + 127) / 128, n, n), 128>>>(q);
  }
  CK(cudaDeviceSynchronize());
  std::vector<T> want(total), got(total);
  CK(cudaMemcpy(want.data(), (K % 2 ? r1 : r0), total * sizeof(T), cudaMemcpyDeviceToHost));
  const int passes = steps / K;
  for (int chunk : chunks) {
    const dim3 grid(bx, by, (n + chunk - 1) / chunk);
    upload(a), upload(b);  // the timed passes below overwrite both
    p.in = a + origin, p.out = b + origin;
    kernel<<<grid, block, smem>>>(p, chunk);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(got.data(), b, total * sizeof(T), cudaMemcpyDeviceToHost));
    const double err = max_err(want, got);
    const float ms = median_ms(
        [&](int) {
          for (int q = 0; q < passes; ++q) {
            params<T> pp = p;
            pp.in = (q % 2 ? b : a) + origin, pp.out = (q % 2 ? a : b) + origin;
            kernel<<<grid, block, smem>>>(pp, chunk);
          }
        },
        5);
    const double gc = (double)n * n * n * passes * K / (ms * 1e-3) / 1e9;
    std::printf("%s %s K=%d tile %dx%d rows %d cols %d ring %d minb %d | regs %d spill %d smem %d blocks/SM %d | n %d chunk %d "
                "| err %.2e | %.1f GCell/s (%.2fx floor)\n",
                Box ? "box27" : "star7", sizeof(T) == 4 ? "fp32" : "fp64", K, TileX, TileY, Rows, V, D, MinB, fa.numRegs,
                (int)fa.localSizeBytes, smem, per_sm, n, chunk, err, gc, gc / floor_gcells);
    std::fflush(stdout);
  }
  cudaFree(a), cudaFree(b), cudaFree(r0), cudaFree(r1);
}

template <class T>
double copy_floor(int n) {
  const size_t bytes = (size_t)n * n * n * sizeof(T);
  void *a, *b;
  CK(cudaMalloc(&a, bytes));
  CK(cudaMalloc(&b, bytes));
  const float ms = median_ms([&](int) { cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice); }, 10);
  cudaFree(a), cudaFree(b);
  const double gbs = 2.0 * bytes / (ms * 1e-3) / 1e9;
  std::printf("copy %.0f GB/s (%s)\n", gbs, sizeof(T) == 4 ? "fp32" : "fp64");
  return gbs / (2.0 * sizeof(T));
}

template <class T>
void coefficients(T* c, bool box) {
  double s = 0;
  for (int k = 0; k < 27; ++k) {
    const int dz = k / 9 - 1, dy = (k / 3) % 3 - 1, dx = k % 3 - 1;
    c[k] = (box ? has_point<true>(dz, dy, dx) : has_point<false>(dz, dy, dx)) ? T(0.5 + urand()) : T(0);
    s += c[k];
  }
  for (int k = 0; k < 27; ++k) c[k] = T(c[k] / s);
}

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 512;
  const int steps = argc > 2 ? std::atoi(argv[2]) : 96;
  const std::string mode = argc > 3 ? argv[3] : "box";
  const double f32 = copy_floor<float>(n), f64 = copy_floor<double>(n);
  float cb[27];
  double cd[27];
  coefficients(cb, true);
  coefficients(cd, true);
  const std::vector<int> chunks = {64, 128, 256};
  if (mode == "box" || mode == "all") {
    run_config<true, float, 2, 64, 32, 2, 4, 2>(n, steps, cb, f32, chunks);
    run_config<true, float, 2, 64, 32, 4, 4, 2>(n, steps, cb, f32, chunks);
    run_config<true, float, 2, 64, 64, 4, 4, 1>(n, steps, cb, f32, chunks);
    run_config<true, float, 3, 64, 64, 4, 4, 1>(n, steps, cb, f32, chunks);
    run_config<true, float, 2, 128, 32, 2, 4, 1>(n, steps, cb, f32, chunks);
    run_config<true, double, 2, 32, 32, 2, 4, 2>(n, steps, cd, f64, chunks);
    run_config<true, double, 2, 64, 32, 2, 4, 1>(n, steps, cd, f64, chunks);
    run_config<true, double, 2, 32, 64, 4, 4, 1>(n, steps, cd, f64, chunks);
  }
  if (mode == "star" || mode == "all") {
    float cs[27];
    coefficients(cs, false);
    run_config<false, float, 3, 64, 32, 2, 4, 2>(n, steps, cs, f32, chunks);
    run_config<false, float, 4, 64, 64, 2, 4, 1>(n, steps, cs, f32, chunks);
    run_config<false, float, 4, 64, 32, 1, 4, 1>(n, steps, cs, f32, chunks);
  }
  // run 53's second call: chunks against waves, smaller blocks
  if (mode == "chunks") {
    const std::vector<int> many = {43, 48, 57, 64, 74, 86, 103, 128, 171};
    run_config<true, float, 2, 64, 32, 2, 4, 2>(n, steps, cb, f32, many);
    run_config<true, float, 2, 32, 32, 2, 4, 4>(n, steps, cb, f32, many);
    run_config<true, float, 2, 64, 32, 2, 2, 2>(n, steps, cb, f32, {64, 86, 171});
    run_config<true, double, 2, 32, 32, 2, 4, 2>(n, steps, cd, f64, many);
    run_config<true, double, 2, 32, 16, 2, 4, 4>(n, steps, cd, f64, {64, 86, 128, 171});
    run_config<true, double, 2, 16, 32, 2, 4, 4>(n, steps, cd, f64, {64, 86, 128, 171});
  }
  if (mode == "chunks2") {
    run_config<true, float, 2, 64, 32, 2, 4, 2>(n, steps, cb, f32, {48, 64, 86, 128, 171});
    run_config<true, double, 2, 32, 32, 2, 4, 2>(n, steps, cd, f64, {48, 64, 86, 128, 171});
  }
  if (mode == "ncu32") run_config<true, float, 2, 64, 32, 2, 4, 2>(n, steps, cb, f32, {64});
  if (mode == "ncu64") run_config<true, double, 2, 32, 32, 2, 4, 2>(n, steps, cd, f64, {64});
  return 0;
}
