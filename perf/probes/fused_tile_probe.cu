// Probe (not part of the build): 3D 7-point fused passes on tiles the library does not
// compile, run through tessera::iterate (100 Dirichlet steps, 512^3, fp64 then fp32), timed
// with events (median of 5 after a warm-up) and compared with temporal_blocking<2>'s result
// (max abs difference). Behind perf/log/run-60.md (fp64 4-step passes with 2 rows a thread).
// Built on the build machine against a configured build/ with its libtessera_cuda.a (the
// probe's own kernels as sm_90 SASS), then carried to the GPU host and run as is:
//   nvcc -O3 -std=c++20 --expt-relaxed-constexpr -gencode arch=compute_90,code=sm_90 \
//     -DTESSERA_ENABLE_CUDA=1 -I build/backends/cuda/generated -I build/generated/include \
//     -I core/include -I backends/host/include -I backends/kokkos/include \
//     -I backends/cuda/include -I algorithms/include perf/probes/fused_tile_probe.cu \
//     -o fused_tile_probe build/backends/cuda/libtessera_cuda.a build/libtessera_host.a -lgomp
#include "tessera/core/deep_copy.hpp"
#include "tessera/cuda/cuda.hpp"
#include "tessera/algorithms/iterate.hpp"
#include "tessera/cuda/strategies/temporal_blocking/kernels.cuh"
#include "tessera/cuda/kernel_entry.cuh"
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>
namespace ts = tessera;
namespace cu = tessera::cuda;

template <class T>
struct setup {
  int n;
  ts::View<T, 3, ts::CudaSpace> u0, u, s;
  ts::stencil<ts::star<3, 1>, T> st{ts::star<3, 1>{}, {T(0.4), T(0.1), T(0.1), T(0.1), T(0.1), T(0.1), T(0.1)}};
  explicit setup(int n_) : n(n_), u0("u0", ts::extents<3>{n_, n_, n_}, 1), u("u", ts::extents<3>{n_, n_, n_}, 1), s("s", ts::extents<3>{n_, n_, n_}, 1) {
    ts::View<T, 3> h("h", ts::extents<3>{n_, n_, n_}, 1);
    unsigned x = 12345;
    for (size_t i = 0; i < h.allocation_bytes() / sizeof(T); ++i) { x = x * 1664525u + 1013904223u; h.data()[i] = T((x >> 8) & 0xffff) / T(65536); }
    ts::deep_copy(u0, h);
  }
};

template <class T, class P>
void time_policy(setup<T>& f, const char* label, std::vector<T>& ref) {
  ts::iterate_options<T, 3, ts::CudaSpace> o;
  o.boundary = ts::boundary_conditions<3>::uniform(ts::boundary::dirichlet(0));
  const int steps = 100;
  std::vector<float> ms;
  ts::View<T, 3, ts::CudaSpace> r;
  for (int rep = 0; rep < 6; ++rep) {
    ts::deep_copy(f.u, f.u0);
    cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
    cudaEventRecord(a);
    r = ts::iterate(P{}, f.st, f.u, f.s, steps, o);
    cudaEventRecord(b); cudaEventSynchronize(b);
    float t; cudaEventElapsedTime(&t, a, b); if (rep) ms.push_back(t);
  }
  std::sort(ms.begin(), ms.end());
  std::vector<T> got(r.allocation_bytes() / sizeof(T));
  cudaMemcpy(got.data(), r.data(), got.size() * sizeof(T), cudaMemcpyDeviceToHost);
  double diff = 0;
  if (ref.empty()) ref = got;
  else for (size_t i = 0; i < got.size(); ++i) diff = std::max(diff, std::fabs(double(got[i]) - double(ref[i])));
  const double cells = double(f.n) * f.n * f.n * steps;
  std::printf("%-8s %4d^3 %-28s %8.3f ms  %7.1f GCell/s  plan %s  maxdiff %.3g\n", sizeof(T) == 8 ? "double" : "float", f.n, label,
              ms[ms.size() / 2], cells / (ms[ms.size() / 2] * 1e6), cu::last_launch().plan.describe().c_str(), diff);
}

int main() {
  {
    setup<double> f(512);
    std::vector<double> ref;
    time_policy<double, cu::temporal_blocking<2>>(f, "tb<2> (32x32 r4)", ref);
    time_policy<double, cu::temporal_blocking<4>>(f, "tb<4> (32x32 r4)", ref);
    time_policy<double, cu::temporal_blocking<4, 32, 32, 2>>(f, "tb<4,32,32,2>", ref);
    time_policy<double, cu::temporal_blocking<3, 32, 32, 2>>(f, "tb<3,32,32,2>", ref);
    time_policy<double, cu::temporal_blocking<2, 32, 32, 2>>(f, "tb<2,32,32,2>", ref);
    time_policy<double, cu::temporal_blocking<4, 32, 32, 1>>(f, "tb<4,32,32,1>", ref);
    time_policy<double, cu::temporal_blocking<4, 64, 16, 2>>(f, "tb<4,64,16,2>", ref);
  }
  {
    setup<float> f(512);
    std::vector<float> ref;
    time_policy<float, cu::temporal_blocking<2>>(f, "tb<2> (32x32 r4)", ref);
    time_policy<float, cu::temporal_blocking<4>>(f, "tb<4> (32x32 r4)", ref);
    time_policy<float, cu::temporal_blocking<4, 64, 32>>(f, "tb<4,64,32>", ref);
    time_policy<float, cu::temporal_blocking<4, 64, 32, 2>>(f, "tb<4,64,32,2>", ref);
    time_policy<float, cu::temporal_blocking<4, 32, 32, 2>>(f, "tb<4,32,32,2>", ref);
    time_policy<float, cu::temporal_blocking<5, 64, 32>>(f, "tb<5,64,32>", ref);
  }
  return 0;
}
