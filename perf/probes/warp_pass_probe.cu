// Probe (not part of the build): the library's 2D fused pass (temporal_blocking_warp_pass,
// 128 columns a warp, one warp a block) launched directly on 8192^2 fp32 with every face
// fixed (ghost 1), the 5-point star and the 9-point box at several steps a pass, each
// checked against K naive sweeps and timed over 96 steps at the chunk the library plans
// (one wave of the blocks an SM holds). Built once against the library's header and once
// per variant of it (a copy of temporal_blocking_2d.cuh in a folder named before the
// library's on the include path), so that variants of the pass compare in one run.
// `wpp [N [star|box|"" [CHUNK% [pdl]]]]`: an N x N grid (8192), one shape or both, the chunk
// in % of the library's, and `pdl` to launch the timed passes as the library does
// (overlapped). Behind perf/log/run-58.md. From the repository root, after a CUDA
// configure of build/ (for the generated headers):
//   nvcc -O3 -std=c++20 --expt-relaxed-constexpr -gencode arch=compute_90,code=sm_90 \
//     [-I variant/include] -I build/backends/cuda/generated -I build/generated/include \
//     -I core/include -I backends/host/include -I backends/kokkos/include \
//     -I backends/cuda/include -I algorithms/include perf/probes/warp_pass_probe.cu -o wpp
#include "tessera/cuda/kernels/temporal_blocking_2d.cuh"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "probe_timing.cuh"

namespace tc = tessera::cuda;

struct field {
  int n;
  long P, tot;
  long at(int y, int x) const { return (long)(y + 1) * P + 32 + x; }
};

template <class S>
__global__ void naive(const float* in, float* out, int n, long P, tc::params_for<S, float> p) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x >= n) return;
  const long i = (long)(y + 1) * P + 32 + x;
  using vs = tc::detail::vshape<S>;
  float s = 0;
  tessera::detail::static_for<vs::size>([&](auto kk) {
    constexpr int K = decltype(kk)::value;
    s += p.template term<K>(in[i + vs::off(K, 1) * P + vs::off(K, 2)]);
  });
  out[i] = s;
}

// pdl: the timed passes launched as the library launches them (cudaLaunchKernelEx with
// programmatic stream serialisation: a pass's blocks may start while the one before ends)
bool pdl = false;

template <class S, int K>
void run(const char* name, const field& f, float* a, float* b, const std::vector<float>& init, double floor_gc,
         int chunk_scale_pct) {
  using P = tc::params_for<S, float>;
  using vs = tc::detail::vshape<S>;
  const int n = f.n;
  P p;
  p.n = {1, n, n};
  p.in_stride = {0, f.P, 1};
  p.out_stride = {0, f.P, 1};
  for (int i = 0; i < vs::size; ++i) p.c[i] = 1.0f / vs::size + 0.01f * (i % 3);
  constexpr int TileX = 128;
  auto kernel = tc::kernels::temporal_blocking_warp_pass<S, float, K, TileX, 1>;
  cudaFuncAttributes attr;
  CK(cudaFuncGetAttributes(&attr, kernel));
  int per_sm = 0, sms = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, 32, 0));
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  tessera::edge_rules rules;
  for (int v = 0; v < 3; ++v) rules.ghost[v] = 1;
  // the library's plan: one wave, chunks of at least 4 pipelines
  constexpr int out_x = TileX - K * (-vs::lo(2) + vs::hi(2));
  const int strips = (n + out_x - 1) / out_x;
  const long resident = long(per_sm) * sms;
  const long per_strip = std::max(1L, resident / strips);
  const int pipeline = K * (vs::width(1) + 1);
  int chunk = int(std::max<long>((n + per_strip - 1) / per_strip, 4L * pipeline));
  chunk = std::max(4 * pipeline, int(long(chunk) * chunk_scale_pct / 100));
  const dim3 grid(strips, (n + chunk - 1) / chunk);
  // reference: K naive sweeps
  std::vector<float> ref(f.tot), got(f.tot);
  CK(cudaMemcpy(a, init.data(), f.tot * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(b, init.data(), f.tot * 4, cudaMemcpyHostToDevice));
  for (int k = 0; k < K; ++k) naive<S><<<dim3((n + 127) / 128, n), 128>>>(k & 1 ? b : a, k & 1 ? a : b, n, f.P, p);
  CK(cudaMemcpy(ref.data(), K & 1 ? b : a, f.tot * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(a, init.data(), f.tot * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(b, init.data(), f.tot * 4, cudaMemcpyHostToDevice));
  P q = p;
  q.in = a + f.at(0, 0);
  q.out = b + f.at(0, 0);
  kernel<<<grid, dim3(32, 1), 0>>>(q, rules, chunk);
  CK(cudaDeviceSynchronize());
  CK(cudaMemcpy(got.data(), b, f.tot * 4, cudaMemcpyDeviceToHost));
  double worst = 0;
  long off = 0;
  for (long i = 0; i < f.tot; ++i) {  // ghosts and padding included: they must stay as they were
    const double e = std::fabs(double(got[i]) - double(ref[i]));
    if (!(e <= 1e-5)) ++off;
    if (!(e <= worst)) worst = e;
  }
  const int passes = 96 / K;
  const float ms = median_ms(
      [&](int) {
        for (int i = 0; i < passes; ++i) {
          P r = p;
          r.in = (i & 1 ? b : a) + f.at(0, 0);
          r.out = (i & 1 ? a : b) + f.at(0, 0);
          if (!pdl) {
            kernel<<<grid, dim3(32, 1), 0>>>(r, rules, chunk);
            continue;
          }
          cudaLaunchAttribute overlap{};
          overlap.id = cudaLaunchAttributeProgrammaticStreamSerialization;
          overlap.val.programmaticStreamSerializationAllowed = 1;
          cudaLaunchConfig_t config{};
          config.gridDim = grid;
          config.blockDim = dim3(32, 1);
          config.attrs = &overlap;
          config.numAttrs = 1;
          CK(cudaLaunchKernelEx(&config, kernel, r, rules, chunk));
        }
      },
      7);
  const double gc = double(n) * n * passes * K / (ms * 1e6);
  std::printf("%-8s K %d regs %3d local %3zu blocks/SM %2d chunk %4d grid %4dx%-3d: %7.1f GCell/s (%.2fx floor) worst %.1e off %ld\n",
              name, K, attr.numRegs, size_t(attr.localSizeBytes), per_sm, chunk, grid.x, grid.y, gc, gc / floor_gc,
              worst, off);
}

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 8192;
  const std::string only = argc > 2 ? argv[2] : "";
  const int scale = argc > 3 ? std::atoi(argv[3]) : 100;  // the chunk, in % of the library's
  pdl = argc > 4 && std::string(argv[4]) == "pdl";
  field f;
  f.n = n;
  f.P = 32 + n + 32;
  f.tot = f.P * (n + 2);
  const std::vector<float> init = random_cells(f.tot);
  float *a, *b;
  CK(cudaMalloc(&a, f.tot * 4));
  CK(cudaMalloc(&b, f.tot * 4));
  const float copy_ms = copy_median_ms(b, a, f.tot * 4);
  const double floor_gc = 2.0 * f.tot * 4 / (copy_ms * 1e6) / 8;
  std::printf("n %d%s: copy %.0f GB/s, floor %.1f GCell/s\n", n, pdl ? " (launches overlapped)" : "", 2.0 * f.tot * 4 / (copy_ms * 1e6), floor_gc);
  using star = tessera::star<2, 1>;
  using box = tessera::box<2, 1>;
  if (only.empty() || only == "star") {
    run<star, 8>("star2d:1", f, a, b, init, floor_gc, scale);
    run<star, 7>("star2d:1", f, a, b, init, floor_gc, scale);
    run<star, 6>("star2d:1", f, a, b, init, floor_gc, scale);
  }
  if (only.empty() || only == "box") {
    run<box, 8>("box2d:1", f, a, b, init, floor_gc, scale);
    run<box, 7>("box2d:1", f, a, b, init, floor_gc, scale);
    run<box, 6>("box2d:1", f, a, b, init, floor_gc, scale);
  }
  CK(cudaFree(a));
  CK(cudaFree(b));
  return 0;
}
