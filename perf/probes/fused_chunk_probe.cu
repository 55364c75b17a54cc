// Probe (not part of the build): the library's 3D fused pass (cuda::temporal_blocking's
// kernel, 4 steps, 32 x 32 tiles, 4 rows a thread) launched directly at chosen chunks along
// z, fp32 7-point, every face fixed (ghost 1), each chunk checked against 4 naive sweeps and
// timed over 99 steps; 512^3 and 192^3. Behind perf/log/run-42.md (the register-tile pass
// it also launched there is in perf/log/run-42-register-tile.patch). From the repository
// root, after a CUDA configure of build/ (for the generated headers):
//   nvcc -O3 -std=c++20 --expt-relaxed-constexpr -gencode arch=compute_90,code=sm_90 \
//     -I build/backends/cuda/generated -I build/generated/include -I core/include \
//     -I backends/host/include -I backends/kokkos/include -I backends/cuda/include \
//     -I algorithms/include perf/probes/fused_chunk_probe.cu -o fused_chunk_probe
#include "tessera/cuda/strategies/temporal_blocking/kernels.cuh"

#include <cstdio>
#include <vector>

#include "probe_timing.cuh"

namespace tc = tessera::cuda;
using S = tessera::star<3, 1>;
using P7 = tc::params_for<S, float>;

struct field {
  int n;
  long P, PL, tot;
  long at(int z, int y, int x) const { return (long)(z + 1) * PL + (long)(y + 1) * P + 32 + x; }
};

__global__ void naive(const float* in, float* out, int n, long P, long PL, P7 p) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y, z = blockIdx.z;
  if (x >= n) return;
  const long i = (long)(z + 1) * PL + (long)(y + 1) * P + 32 + x;
  // the library's point order for star<3,1>: taken from params' term order via the same offsets
  float s = 0;
  tessera::detail::static_for<7>([&](auto kk) {
    constexpr int K = decltype(kk)::value;
    using vs = tc::detail::vshape<S>;
    constexpr int dz = vs::off(K, 0), dy = vs::off(K, 1), dx = vs::off(K, 2);
    s += p.template term<K>(in[i + dz * PL + dy * P + dx]);
  });
  out[i] = s;
}

template <int K, int TY, int Rows>
void run(int n, float* a, float* b, const std::vector<float>& init, const field& f, P7 p, double floor_gc) {
  constexpr int BY = TY / Rows, TX = 32;
  constexpr int OX = TX - 2 * K, OY = TY - 2 * K;
  const size_t shared = size_t(K) * 2 * tc::detail::published_geometry<S, TX, TY>::plane * 4;
  auto kernel = tc::kernels::temporal_blocking_pass<S, float, K, TX, TY, Rows>;
  const dim3 block(TX, BY);
  CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(shared)));
  cudaFuncAttributes attr;
  CK(cudaFuncGetAttributes(&attr, kernel));
  tessera::edge_rules rules;
  for (int v = 0; v < 3; ++v) rules.ghost[v] = 1;
  // reference
  std::vector<float> ref(f.tot), got(f.tot);
  CK(cudaMemcpy(a, init.data(), f.tot * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(b, init.data(), f.tot * 4, cudaMemcpyHostToDevice));
  for (int k = 0; k < K; ++k) {
    P7 q = p;
    naive<<<dim3((n + 127) / 128, n, n), 128>>>(k & 1 ? b : a, k & 1 ? a : b, n, f.P, f.PL, q);
  }
  CK(cudaMemcpy(ref.data(), K & 1 ? b : a, f.tot * 4, cudaMemcpyDeviceToHost));
  for (int chunk : {24, 32, 48, 64, 96, 128}) {
    if (chunk > n) continue;
    const dim3 grid((n + OX - 1) / OX, (n + OY - 1) / OY, (n + chunk - 1) / chunk);
    CK(cudaMemcpy(a, init.data(), f.tot * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(b, init.data(), f.tot * 4, cudaMemcpyHostToDevice));
    P7 q = p;
    q.in = a + f.at(0, 0, 0);
    q.out = b + f.at(0, 0, 0);
    kernel<<<grid, block, shared>>>(q, rules, chunk);
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(got.data(), b, f.tot * 4, cudaMemcpyDeviceToHost));
    double worst = 0;
    for (int z = 0; z < n; ++z)
      for (int y = 0; y < n; ++y)
        for (int x = 0; x < n; ++x) worst = std::max(worst, (double)std::fabs(got[f.at(z, y, x)] - ref[f.at(z, y, x)]));
    const int passes = 99 / K;
    const float ms = median_ms(
        [&](int) {
          for (int i = 0; i < passes; ++i) {
            P7 r = p;
            r.in = (i & 1 ? b : a) + f.at(0, 0, 0);
            r.out = (i & 1 ? a : b) + f.at(0, 0, 0);
            kernel<<<grid, block, shared>>>(r, rules, chunk);
          }
        },
        5);
    const double gc = double(n) * n * n / (ms / (passes * K) * 1e6);
    std::printf("n %d K %d %dx%d rows %d regs %d local %zu: chunk %3d blocks %6d: %7.1f GCell/s (%.2fx) err %.1e\n",
                n, K, TX, TY, Rows, attr.numRegs, size_t(attr.localSizeBytes), chunk, grid.x * grid.y * grid.z,
                gc, gc / floor_gc, worst);
  }
}

int main() {
  for (int n : {512, 192}) {
    field f;
    f.n = n;
    f.P = 32 + n + 32;
    f.PL = f.P * (n + 2);
    f.tot = f.PL * (n + 2);
    const std::vector<float> init = random_cells(f.tot);
    float *a, *b;
    CK(cudaMalloc(&a, f.tot * 4));
    CK(cudaMalloc(&b, f.tot * 4));
    const float copy_ms = copy_median_ms(b, a, f.tot * 4);
    const double floor_gc = 2.0 * f.tot * 4 / (copy_ms * 1e6) / 8;
    P7 p;
    p.n = {n, n, n};
    p.in_stride = {f.PL, f.P, 1};
    p.out_stride = {f.PL, f.P, 1};
    const float c[7] = {0.4f, 0.1f, 0.1f, 0.1f, 0.1f, 0.1f, 0.1f};
    for (int i = 0; i < 7; ++i) p.c[i] = c[i];
    std::printf("n %d: floor %.1f GCell/s\n", n, floor_gc);
    run<4, 32, 4>(n, a, b, init, f, p, floor_gc);
    CK(cudaFree(a));
    CK(cudaFree(b));
  }
  return 0;
}
