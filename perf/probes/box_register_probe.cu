// Probe (not part of the build): the register tile of outputs for 3D boxes of radius R that
// cuda::register_tiled runs (strategies/register_tiled/kernels.cuh), with the variants
// perf/log/run-52.md compares: Pipe 0, two buffers of the input plane and a __syncthreads a
// plane (the library's before run 52); Pipe 1, a ring of four buffers with mbarrier
// arrive/wait, so a warp may run a plane ahead (the library's since); Rows x Cols outputs a
// thread, a row's values read as vectors of up to 16 bytes; MinBlocks launch bounds. Each
// launch is checked against a naive kernel and timed (median of 10), with its registers,
// spills and blocks an SM. Run 51's variants (all rows preloaded) are in this file's history
// (commit c6c219d). Self-contained:
//   nvcc -std=c++20 -O3 -gencode arch=compute_90,code=sm_90 perf/probes/box_register_probe.cu -o box_probe
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cmath>
#include <utility>
#include <string>

template <int R, class T>
struct params {
  const T* in; T* out;
  long long sz, sy;
  int nz, ny, nx;
  T c[(2 * R + 1) * (2 * R + 1) * (2 * R + 1)];
};

template <class F, int... I>
__device__ __forceinline__ void sfor_impl(F&& f, std::integer_sequence<int, I...>) { (f(std::integral_constant<int, I>{}), ...); }
template <int N, class F>
__device__ __forceinline__ void sfor(F&& f) { sfor_impl(f, std::make_integer_sequence<int, N>{}); }

__device__ __forceinline__ void mbar_init(unsigned long long* b, unsigned count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"((unsigned)__cvta_generic_to_shared(b)), "r"(count));
}
__device__ __forceinline__ void mbar_arrive(unsigned long long* b) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"((unsigned)__cvta_generic_to_shared(b)) : "memory");
}
__device__ __forceinline__ void mbar_wait(unsigned long long* b, unsigned parity) {
  asm volatile(
      "{\n .reg .pred p;\n WAIT_%=:\n"
      " mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n"
      " @!p bra WAIT_%=;\n}\n" ::"r"((unsigned)__cvta_generic_to_shared(b)), "r"(parity) : "memory");
}

template <class T, int N> struct vec;
template <> struct vec<float, 1> { using type = float; };
template <> struct vec<float, 2> { using type = float2; };
template <> struct vec<float, 4> { using type = float4; };
template <> struct vec<double, 1> { using type = double; };
template <> struct vec<double, 2> { using type = double2; };

template <int R, class T, int TileX, int TileY, int Rows, int Cols, int MinBlocks, int Pipe>
__global__ void __launch_bounds__((TileX / Cols) * (TileY / Rows), MinBlocks) box_kernel(const params<R, T> p, const int chunk) {
  constexpr int W = 2 * R + 1, in_x = TileX + 2 * R, in_y = TileY + 2 * R, in_cells = in_x * in_y;
  constexpr int TX = TileX / Cols, threads = TX * (TileY / Rows);
  constexpr int share = (in_cells + threads - 1) / threads;
  constexpr int NB = Pipe ? 4 : 2;
  // Cols outputs a thread read Cols + 2R values a row; as vectors of Cols (R even or Cols 1).
  constexpr int V = Cols == 1 ? 1 : (sizeof(T) == 8 && Cols > 2 ? 2 : Cols), nvec = (Cols + 2 * R + V - 1) / V;
  static_assert(Cols == 1 || (2 * R) % Cols == 0, "vector loads need R * 2 a multiple of Cols");
  __shared__ __align__(16) T plane[NB][in_cells];
  __shared__ unsigned long long ready[NB];
  const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * TX + tx;
  const long long x0 = (long long)blockIdx.x * TileX, y0 = (long long)blockIdx.y * TileY;
  const long long z0 = (long long)blockIdx.z * chunk, z_end = min(z0 + chunk, (long long)p.nz);
  int at[share];
  const int last_row = (int)(p.ny + R - 1 - (y0 - R)), last_col = (int)(p.nx + R - 1 - (x0 - R));
#pragma unroll
  for (int k = 0; k < share; ++k) {
    const int i = min(tid + k * threads, in_cells - 1), row = i / in_x, col = i - row * in_x;
    at[k] = (int)(min(row, last_row) * p.sy + min(col, last_col));
  }
  const T* const corner = p.in + (y0 - R) * p.sy + (x0 - R);
  T next[share];
  auto fetch = [&](long long z) {
    const T* base = corner + z * p.sz;
#pragma unroll
    for (int k = 0; k < share; ++k) next[k] = __ldg(base + at[k]);
  };
  auto publish = [&](int b) {
#pragma unroll
    for (int k = 0; k < share; ++k) if (k + 1 < share || tid + k * threads < in_cells) plane[b][tid + k * threads] = next[k];
  };
  T acc[W][Rows * Cols];
#pragma unroll
  for (int j = 0; j < W; ++j)
#pragma unroll
    for (int r = 0; r < Rows * Cols; ++r) acc[j][r] = T(0);
  const long long z_first = z0 - R, z_last = z_end - 1 + R;
  const long long y_first = y0 + ty * Rows, xs = x0 + tx * Cols;
  T* const out_column = p.out + y_first * p.sy + xs;

  auto compute = [&](int b) {
    const T* const rows_in = plane[b] + ty * Rows * in_x + tx * Cols;
    sfor<Rows + 2 * R>([&](auto ri_) {
      constexpr int ri = decltype(ri_)::value;
      T v[nvec * V];
      using vt = typename vec<T, V>::type;
#pragma unroll
      for (int d = 0; d < nvec; ++d) {
        const vt w = reinterpret_cast<const vt*>(rows_in + ri * in_x)[d];
        if constexpr (V == 1) v[d] = w;
        else if constexpr (V == 2) { v[2 * d] = w.x; v[2 * d + 1] = w.y; }
        else { v[4 * d] = w.x; v[4 * d + 1] = w.y; v[4 * d + 2] = w.z; v[4 * d + 3] = w.w; }
      }
      sfor<W * W * W>([&](auto k_) {
        constexpr int K = decltype(k_)::value;
        constexpr int dz = K / (W * W) - R, dy = (K / W) % W - R, dx = K % W - R;
        constexpr int r = ri - R - dy;
        if constexpr (r >= 0 && r < Rows) {
#pragma unroll
          for (int c = 0; c < Cols; ++c) acc[R - dz][r * Cols + c] += p.c[K] * v[c + dx + R];
        }
      });
    });
  };
  auto emit_and_shift = [&](long long zi) {
    const long long zo = zi - R;
    if (zo >= z0) {
      T* const o = out_column + zo * p.sz;
#pragma unroll
      for (int r = 0; r < Rows; ++r)
#pragma unroll
        for (int c = 0; c < Cols; ++c)
          if (y_first + r < p.ny && xs + c < p.nx) o[r * p.sy + c] = acc[0][r * Cols + c];
    }
#pragma unroll
    for (int j = 0; j + 1 < W; ++j)
#pragma unroll
      for (int r = 0; r < Rows * Cols; ++r) acc[j][r] = acc[j + 1][r];
#pragma unroll
    for (int r = 0; r < Rows * Cols; ++r) acc[W - 1][r] = T(0);
  };

  if constexpr (Pipe == 0) {
    fetch(z_first); publish(0); __syncthreads();
    int b = 0;
    for (long long zi = z_first; zi <= z_last; ++zi) {
      if (zi < z_last) fetch(zi + 1);
      compute(b);
      emit_and_shift(zi);
      if (zi < z_last) publish(b ^ 1);
      __syncthreads();
      b ^= 1;
    }
  } else {
    // Plane j lives in buffer j % 4; ready[j % 4] completes a phase when every thread has
    // stored its share of plane j. A thread stores plane i + 1 at the start of iteration i
    // (buffer of plane i - 3: every thread finished computing it before it stored plane
    // i - 1, which this thread waited for in iteration i - 1).
    if (tid == 0)
      for (int b = 0; b < NB; ++b) mbar_init(&ready[b], threads);
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    __syncthreads();
    fetch(z_first); publish(0); mbar_arrive(&ready[0]);
    if (z_first < z_last) fetch(z_first + 1);
    int j = 0;  // iteration count: plane index relative to z_first
    for (long long zi = z_first; zi <= z_last; ++zi, ++j) {
      if (zi < z_last) { publish((j + 1) & 3); mbar_arrive(&ready[(j + 1) & 3]); }
      if (zi + 1 < z_last) fetch(zi + 2);
      mbar_wait(&ready[j & 3], (j >> 2) & 1);
      compute(j & 3);
      emit_and_shift(zi);
    }
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

template <int R, class T, int TileX, int TileY, int Rows, int Cols, int MinBlocks, int Pipe>
void run(int n, int chunk, int reps, const char* name) {
  // nx padded so rows stay 16-byte aligned for the vector loads: row stride a multiple of 4
  const long long g = n + 2 * R, sy = (g + 3) / 4 * 4 + 4, sz = sy * g, total = sz * g;
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
  dim3 grid((n + TileX - 1) / TileX, (n + TileY - 1) / TileY, (n + chunk - 1) / chunk), block(TileX / Cols, TileY / Rows);
  auto k = box_kernel<R, T, TileX, TileY, Rows, Cols, MinBlocks, Pipe>;
  cudaFuncAttributes attr; cudaFuncGetAttributes(&attr, k);
  int per_sm = 0; cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k, block.x * block.y, 0);
  k<<<grid, block>>>(p, chunk);
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) { std::printf("%s: %s\n", name, cudaGetErrorString(e)); std::exit(1); }
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
  const double gcell = double(n) * n * n / ms / 1e6;
  int clock_khz = 0; cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0);
  int sms = 0; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  const double peak = double(sms) * (sizeof(T) == 4 ? 128 : 64) * clock_khz * 1e3;  // FMA/s
  std::printf("%-26s R%d %s n=%d chunk=%d regs=%d spill=%zu blocks/SM=%d: %.3f ms, %.1f GCell/s, %.3f of FMA peak, err %.1e %s\n",
              name, R, sizeof(T) == 4 ? "float" : "double", n, chunk, attr.numRegs, attr.localSizeBytes, per_sm, ms, gcell,
              gcell * 1e9 * P / peak, err, err <= (sizeof(T) == 4 ? 1e-5 : 1e-12) * std::max(1.0, mx) ? "ok" : "MISMATCH");
  std::fflush(stdout);
  cudaFree(in); cudaFree(out); cudaFree(ref);
}

// The first set (session 40's first call): variants A and pipe at 8 rows, columns, launch bounds.
int first_set(int reps) {
  for (int n : {256, 512}) {
    const int chunk = 64;
    run<2, float, 32, 32, 8, 1, 1, 0>(n, chunk, reps, "f A rows8");
    run<2, float, 32, 32, 8, 1, 3, 0>(n, chunk, reps, "f A rows8 mb3");
    run<2, float, 32, 32, 8, 1, 1, 1>(n, chunk, reps, "f pipe rows8");
    run<2, float, 32, 32, 8, 1, 3, 1>(n, chunk, reps, "f pipe rows8 mb3");
    run<2, float, 32, 32, 4, 2, 1, 0>(n, chunk, reps, "f A rows4 cols2");
    run<2, float, 32, 32, 4, 2, 1, 1>(n, chunk, reps, "f pipe rows4 cols2");
    run<2, float, 64, 32, 8, 2, 1, 1>(n, chunk, reps, "f pipe 64x32 rows8 cols2");
    run<2, float, 32, 32, 2, 4, 1, 0>(n, chunk, reps, "f A rows2 cols4");
    run<2, double, 32, 32, 4, 1, 1, 0>(n, chunk, reps, "d A rows4");
    run<2, double, 32, 32, 4, 1, 1, 1>(n, chunk, reps, "d pipe rows4");
    run<2, double, 32, 32, 2, 2, 1, 0>(n, chunk, reps, "d A rows2 cols2");
    run<2, double, 32, 32, 2, 2, 1, 1>(n, chunk, reps, "d pipe rows2 cols2");
    run<2, double, 32, 32, 4, 1, 2, 0>(n, chunk, reps, "d A rows4 mb2");
    run<2, double, 32, 32, 4, 1, 2, 1>(n, chunk, reps, "d pipe rows4 mb2");
    run<2, double, 32, 32, 8, 1, 1, 1>(n, chunk, reps, "d pipe rows8");
    run<1, float, 32, 32, 8, 1, 1, 0>(n, chunk, reps, "f A rows8");
    run<1, float, 32, 32, 8, 1, 1, 1>(n, chunk, reps, "f pipe rows8");
    run<1, double, 32, 32, 4, 1, 1, 0>(n, chunk, reps, "d A rows4");
    run<1, double, 32, 32, 4, 1, 1, 1>(n, chunk, reps, "d pipe rows4");
  }
  return 0;
}

int second_set(int reps);

// ./box_probe: the second set; ./box_probe first: the first; ./box_probe profile: one launch
// each of four kernels for Nsight Compute; ./box_probe tiles: output tiles and chunks at
// 256^3; ./box_probe small: awkward sizes for compute-sanitizer.
int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode.empty()) return second_set(10);
  if (mode == "first") return first_set(10);
  if (mode == "profile") {
    run<2, float, 32, 32, 8, 1, 1, 0>(256, 64, 1, "f A");
    run<2, double, 32, 32, 4, 1, 1, 0>(256, 64, 1, "d A");
    run<2, float, 32, 32, 8, 1, 1, 1>(256, 64, 1, "f pipe");
    run<2, double, 32, 32, 4, 1, 1, 1>(256, 64, 1, "d pipe");
    return 0;
  }
  if (mode == "tiles") {  // 32 x 16 against 32 x 32 output tiles and chunks, at 256^3 and 512^3
    run<2, float, 32, 32, 2, 4, 1, 1>(256, 32, 10, "f 32x32 chunk32");
    run<2, float, 32, 32, 2, 4, 1, 1>(256, 64, 10, "f 32x32 chunk64");
    run<2, float, 32, 16, 2, 4, 1, 1>(256, 64, 10, "f 32x16 chunk64");
    run<2, float, 32, 16, 2, 4, 1, 1>(256, 32, 10, "f 32x16 chunk32");
    run<2, float, 16, 32, 2, 4, 1, 1>(256, 64, 10, "f 16x32 chunk64");
    run<2, double, 32, 32, 2, 2, 1, 1>(256, 32, 10, "d 32x32 chunk32");
    run<2, double, 32, 16, 2, 2, 1, 1>(256, 64, 10, "d 32x16 chunk64");
    run<2, double, 32, 16, 2, 2, 1, 1>(256, 32, 10, "d 32x16 chunk32");
    run<2, float, 32, 32, 2, 4, 1, 1>(512, 64, 10, "f 32x32 chunk64");
    run<2, float, 32, 16, 2, 4, 1, 1>(512, 64, 10, "f 32x16 chunk64");
    return 0;
  }
  if (mode == "small") {
    for (int n : {37, 70}) {
      run<2, float, 32, 32, 4, 2, 1, 1>(n, 16, 1, "f pipe rows4 cols2");
      run<2, float, 32, 32, 4, 4, 1, 1>(n, 16, 1, "f pipe rows4 cols4");
      run<2, double, 32, 32, 2, 2, 1, 1>(n, 16, 1, "d pipe rows2 cols2");
      run<1, float, 32, 32, 4, 2, 1, 1>(n, 16, 1, "f pipe rows4 cols2");
      run<1, double, 32, 32, 2, 2, 1, 1>(n, 16, 1, "d pipe rows2 cols2");
    }
    return 0;
  }
  std::printf("usage: box_probe [first|profile|tiles|small]\n");
  return 2;
}
int second_set(int reps) {
  for (int n : {512, 256}) {
    const int chunk = n == 512 ? 64 : 32;
    run<2, float, 32, 32, 4, 2, 1, 1>(n, chunk, reps, "f pipe rows4 cols2");
    run<2, float, 32, 32, 4, 2, 4, 1>(n, chunk, reps, "f pipe rows4 cols2 mb4");
    run<2, float, 32, 32, 2, 4, 1, 1>(n, chunk, reps, "f pipe rows2 cols4");
    run<2, float, 32, 32, 4, 4, 1, 1>(n, chunk, reps, "f pipe rows4 cols4");
    run<2, float, 32, 32, 4, 4, 6, 1>(n, chunk, reps, "f pipe rows4 cols4 mb6");
    run<2, float, 64, 32, 4, 4, 1, 1>(n, chunk, reps, "f pipe 64x32 rows4 cols4");
    run<2, float, 32, 64, 4, 2, 1, 1>(n, chunk, reps, "f pipe 32x64 rows4 cols2");
    run<2, float, 32, 32, 8, 2, 1, 1>(n, chunk, reps, "f pipe rows8 cols2");
    run<2, float, 32, 16, 4, 2, 1, 1>(n, chunk, reps, "f pipe 32x16 rows4 cols2");
    run<2, double, 32, 32, 2, 2, 1, 1>(n, chunk, reps, "d pipe rows2 cols2");
    run<2, double, 32, 32, 2, 2, 3, 1>(n, chunk, reps, "d pipe rows2 cols2 mb3");
    run<2, double, 32, 32, 4, 2, 1, 1>(n, chunk, reps, "d pipe rows4 cols2");
    run<2, double, 32, 32, 2, 4, 1, 1>(n, chunk, reps, "d pipe rows2 cols4");
    run<2, double, 32, 32, 1, 2, 1, 1>(n, chunk, reps, "d pipe rows1 cols2");
    run<2, double, 32, 16, 2, 2, 1, 1>(n, chunk, reps, "d pipe 32x16 rows2 cols2");
    run<2, double, 64, 16, 2, 2, 1, 1>(n, chunk, reps, "d pipe 64x16 rows2 cols2");
    run<1, float, 32, 32, 4, 2, 1, 1>(n, chunk, reps, "f pipe rows4 cols2");
    run<1, float, 32, 32, 8, 1, 1, 1>(n, chunk, reps, "f pipe rows8");
    run<1, double, 32, 32, 2, 2, 1, 1>(n, chunk, reps, "d pipe rows2 cols2");
    run<1, double, 32, 32, 4, 2, 1, 1>(n, chunk, reps, "d pipe rows4 cols2");
  }
  return 0;
}
