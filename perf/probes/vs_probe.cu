// Probe (not part of the build): cuda::vector_streaming's kernels with their tuning
// knobs timed directly on a grid laid out like a tessera View against cudaMemcpy of
// 1 GiB, as tessera-bench measures it; every variant is checked against the library's
// per-point kernel (naive_sweep). The window kernel (vector_streaming.cuh: planes loaded
// ahead, blocks per SM asked of the register allocator, scalar edge loads, per-step
// pointers) and the accumulating kernel of wide 3D stars (vector_accumulate.cuh: rows a
// warp, own rows ahead, blocks per SM, edge lines prefetched ahead).
// `vs_probe 512 profile` launches two kernels once each, for ncu.
//   nvcc -O3 -std=c++20 --expt-relaxed-constexpr -arch=sm_90 -Icore/include \
//        -Ibackends/cuda/include perf/probes/vs_probe.cu -o vs_probe && ./vs_probe
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "tessera/core/builtin_shapes.hpp"
#include "tessera/cuda/kernels/naive.cuh"
#include "tessera/cuda/kernels/vector_accumulate.cuh"
#include "tessera/cuda/kernels/vector_streaming.cuh"

#include "probe_timing.cuh"

namespace k = tessera::cuda::kernels;
namespace tc = tessera::cuda;
using tessera::index_t;

// A cube of N^3 interior points with g ghosts, rows padded so every interior row starts
// on 128 bytes (tessera::layout with default_row_alignment).
template <class T>
struct cube {
  int n, g;
  index_t row, plane, total, origin;
  cube(int n_, int g_) : n(n_), g(g_) {
    const index_t a = 128 / sizeof(T), pad = (a - g % a) % a;
    row = (pad + n + 2 * g + a - 1) / a * a;
    plane = row * (n + 2 * g);
    total = plane * (n + 2 * g);
    origin = g * plane + g * row + pad + g;
  }
};

double copy_gbs = 0;
extern bool profile_mode;

template <class S, class T>
struct bench_case {
  cube<T> c;
  T *in[2], *out, *ref;
  tc::params_for<S, T> p[2];
  std::vector<T> h, hr, ho;
  const char* name;
  explicit bench_case(int n, const char* nm) : c(n, tessera::shape_traits<S>::radius), name(nm) {
    const size_t bytes = c.total * sizeof(T);
    for (auto& b : in) CK(cudaMalloc(&b, bytes));
    CK(cudaMalloc(&out, bytes));
    CK(cudaMalloc(&ref, bytes));
    h.resize(c.total);
    for (index_t i = 0; i < c.total; ++i) h[i] = T((i * 2654435761u) % 1000) * T(1e-3);
    for (auto& b : in) CK(cudaMemcpy(b, h.data(), bytes, cudaMemcpyHostToDevice));
    for (int b = 0; b < 2; ++b) {
      p[b].in = in[b] + c.origin;
      p[b].out = out + c.origin;
      p[b].in_stride[0] = p[b].out_stride[0] = c.plane;
      p[b].in_stride[1] = p[b].out_stride[1] = c.row;
      p[b].in_stride[2] = p[b].out_stride[2] = 1;
      p[b].n[0] = p[b].n[1] = p[b].n[2] = n;
      for (int q = 0; q < tessera::shape_traits<S>::size; ++q) p[b].c[q] = T(0.1 * (q + 1)) / tessera::shape_traits<S>::size;
    }
    auto pr = p[0];
    pr.out = ref + c.origin;
    k::naive_sweep<S, T, 32, 8, 1><<<dim3((n + 31) / 32, (n + 7) / 8, n), dim3(32, 8)>>>(pr);
    CK(cudaDeviceSynchronize());
    hr.resize(c.total);
    ho.resize(c.total);
    CK(cudaMemcpy(hr.data(), ref, bytes, cudaMemcpyDeviceToHost));
  }
  ~bench_case() {
    for (auto& b : in) cudaFree(b);
    cudaFree(out);
    cudaFree(ref);
  }
  template <class L>
  void run(const std::string& label, L launch) {
    CK(cudaMemset(out, 0, c.total * sizeof(T)));
    const float ms = median_ms([&](int r) { launch(p[r % 2]); });
    CK(cudaMemcpy(ho.data(), out, c.total * sizeof(T), cudaMemcpyDeviceToHost));
    double err = 0;
    for (int z = 0; z < c.n; ++z)
      for (int y = 0; y < c.n; ++y)
        for (int x = 0; x < c.n; ++x) {
          const index_t i = c.origin + z * c.plane + y * c.row + x;
          err = std::max(err, (double)std::fabs(ho[i] - hr[i]));
        }
    const double gbs = 2.0 * c.n * (double)c.n * c.n * sizeof(T) / (ms * 1e-3) * 1e-9;
    std::printf("%-8s %-6s %-34s %.4f ms  %5.0f GB/s  frac %.3f  err %.2g%s\n", name, sizeof(T) == 4 ? "float" : "double",
                label.c_str(), ms, gbs, gbs / copy_gbs, err, err > 1e-4 ? "  MISMATCH" : "");
  }
  // BY warps, D planes loaded ahead (the policy's Depth - 1), MB blocks per SM asked of
  // the register allocator (0: none), SC scalar edge loads, SP per-step pointers.
  template <int BY, int D, int MB, bool SC, bool SP>
  void vs(int chunk) {
    char label[96];
    std::snprintf(label, sizeof label, "vs<BY%d,D%d,MB%d,%s,%s> chunk %d", BY, D, MB, SC ? "scal" : "vec", SP ? "step" : "mul", chunk);
    constexpr int NV = 16 / sizeof(T);
    const dim3 grid((c.n + 32 * NV - 1) / (32 * NV), (c.n + BY - 1) / BY, (c.n + chunk - 1) / chunk);
    if (profile_mode) {
      k::vector_streaming_sweep<S, T, BY, D, MB, SC, SP><<<grid, dim3(32, BY)>>>(p[0], chunk);
      CK(cudaDeviceSynchronize());
      return;
    }
    run(label, [&](const tc::params_for<S, T>& q) { k::vector_streaming_sweep<S, T, BY, D, MB, SC, SP><<<grid, dim3(32, BY)>>>(q, chunk); });
  }
  // The accumulating kernel: BY warps of H rows, AH own rows ahead, MB blocks per SM, edge
  // lines PF planes ahead.
  template <int BY, int H, int AH, int MB, int PF>
  void va(int chunk) {
    char label[96];
    std::snprintf(label, sizeof label, "va<BY%d,H%d,AH%d,MB%d,PF%d> chunk %d", BY, H, AH, MB, PF, chunk);
    constexpr int NV = 16 / sizeof(T), LW = 32 / H;
    const dim3 grid((c.n + LW * NV - 1) / (LW * NV), (c.n + BY * H - 1) / (BY * H), (c.n + chunk - 1) / chunk);
    if (profile_mode) {
      k::vector_accumulate_sweep<S, T, BY, H, AH, MB, PF><<<grid, dim3(32, BY)>>>(p[0], chunk);
      CK(cudaDeviceSynchronize());
      return;
    }
    run(label, [&](const tc::params_for<S, T>& q) { k::vector_accumulate_sweep<S, T, BY, H, AH, MB, PF><<<grid, dim3(32, BY)>>>(q, chunk); });
  }
};

bool profile_mode = false;  // one launch per variant, no timing (for ncu)

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 512;
  profile_mode = argc > 2;
  {
    void *s, *d;
    const size_t cb = size_t(1) << 30;
    CK(cudaMalloc(&s, cb));
    CK(cudaMalloc(&d, cb));
    CK(cudaMemset(s, 1, cb));
    const float tm = median_ms([&](int) { cudaMemcpy(d, s, cb, cudaMemcpyDeviceToDevice); });
    copy_gbs = 2.0 * cb / (tm * 1e-3) * 1e-9;
    std::printf("cudaMemcpy 1 GiB: %.3f ms %.0f GB/s\n", tm, copy_gbs);
    cudaFree(s);
    cudaFree(d);
  }
  using tessera::star;
  if (profile_mode) {
    bench_case<star<3, 4>, float> b(n, "25-point");
    b.vs<4, 0, 0, true, true>(10);
    b.va<4, 2, 1, 7, 3>(8);
    return 0;
  }
  // The library's defaults first (perf/RESULTS.md run 7), then what they were chosen over.
  {
    bench_case<star<3, 1>, float> b(n, "7-point");
    b.vs<8, 0, 6, true, true>(4);
    b.vs<8, 1, 5, false, false>(4);  // the kernel of run 6: vector edges, 64-bit products, 1280 threads
    b.vs<8, 0, 8, true, true>(4);    // 2048 threads: 32 registers
    b.vs<4, 0, 12, true, true>(4);
    for (int ch : {3, 6, 8}) b.vs<8, 0, 6, true, true>(ch);
  }
  {
    bench_case<star<3, 1>, double> b(n, "7-point");
    b.vs<8, 0, 6, true, true>(4);
    b.vs<8, 1, 5, true, true>(4);
    b.vs<4, 0, 12, true, true>(4);
  }
  {
    bench_case<star<3, 2>, float> b(n, "13-point");
    b.vs<4, 0, 0, true, true>(6);
    b.vs<8, 0, 0, true, true>(6);
    for (int ch : {4, 8}) b.vs<4, 0, 0, true, true>(ch);
  }
  {
    // 25-point: the library's accumulating kernel (perf/RESULTS.md run 8), then what it
    // was chosen over, then the window kernel of run 7.
    bench_case<star<3, 4>, float> b(n, "25-point");
    b.va<4, 2, 1, 7, 3>(8);
    b.va<4, 2, 1, 7, 3>(10);
    b.va<4, 2, 1, 7, 2>(8);
    b.va<4, 2, 1, 7, 2>(10);
    b.va<4, 2, 1, 7, 3>(16);
    b.va<4, 1, 1, 7, 3>(8);
    b.va<4, 4, 1, 7, 3>(8);
    b.va<4, 2, 1, 0, 3>(8);  // the compiler's registers: 6 blocks an SM
    b.va<4, 2, 2, 7, 3>(8);
    b.va<4, 2, 1, 7, 0>(8);
    b.vs<4, 0, 0, true, true>(10);
  }
  {
    bench_case<star<3, 4>, float> b(257, "25-point");  // extents off every tile
    b.va<4, 2, 1, 7, 3>(8);
  }
  {
    bench_case<star<3, 4>, double> b(n, "25-point");
    b.va<4, 2, 1, 0, 3>(8);
    b.vs<4, 0, 0, true, true>(10);
  }
  {
    bench_case<star<3, 3>, float> b(n, "19-point");
    b.va<4, 2, 1, 7, 3>(8);
    b.vs<4, 0, 0, true, true>(8);
  }
}
