// Probe (not built by CMake): what splitting a rank's 512^3 block into the boxes of an
// overlapped step (mpi::overlapped_step) costs on one GPU, with no exchange: the block swept
// whole, the inner box alone, the inner box with 4 shell planes (every face of a 2x2x1 rank's
// split axes) or 2 (only the faces with a neighbour: faces_waiting_for_halos), the inner box
// cut into slabs, each shell alone; GPU time a step (CUDA events) and the host's enqueue time.
// Results: perf/log/run-39.md. Build beside a CUDA build of tessera (B = its build folder):
//   g++ -std=c++20 -O2 -fopenmp -DTESSERA_CUDA_PRECOMPILED=1 -DTESSERA_ENABLE_CUDA=1 \
//       -DTESSERA_HOST_PRECOMPILED=1 -Icore/include -Ibackends/host/include -Ibackends/cuda/include \
//       -Ialgorithms/include -I$B/generated/include -isystem /usr/local/cuda/include \
//       perf/probes/boxes_probe.cpp $B/backends/cuda/libtessera_cuda.a $B/libtessera_host.a \
//       -L/usr/local/cuda/lib64 -lcudart -o boxes_probe && ./boxes_probe
#include <cuda_runtime.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>
#include <tessera/algorithms/apply.hpp>
#include <tessera/algorithms/heat.hpp>
#include <tessera/cuda/cuda.hpp>
#include <tessera/core/deep_copy.hpp>
namespace ts = tessera;
using V = ts::View<float, 3, ts::CudaSpace>;
int main() {
  const int n = 512, steps = 100;
  V u("u", ts::extents<3>{n, n, n}, 1), v("v", u.layout());
  {
    ts::View<float, 3> h("h", u.layout());
    for (ts::index_t i = 0; i < h.layout().span(); ++i) h.data()[i] = 1.0f + 1e-3f * float(i % 17);
    ts::deep_copy(u, h);
    ts::deep_copy(v, h);
  }
  const double hh = 1.0 / (n + 1);
  const auto step = ts::heat_step<3, 2>(1.0, 0.9 * ts::heat_stability_limit<3, 2>(1.0, ts::array<float, 3>{float(hh), float(hh), float(hh)}),
                                        ts::array<float, 3>{float(hh), float(hh), float(hh)});
  cudaStream_t compute, shell[4];
  cudaStreamCreateWithFlags(&compute, cudaStreamNonBlocking);
  for (auto& s : shell) cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  cudaEvent_t start, done[4], a, b;
  cudaEventCreateWithFlags(&start, cudaEventDisableTiming);
  for (auto& e : done) cudaEventCreateWithFlags(&e, cudaEventDisableTiming);
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  struct box { ts::array<ts::index_t, 3> f; ts::extents<3> c; };
  const box inner{{1, 1, 0}, {n - 2, n - 2, n}};
  const box inner0{{0, 0, 0}, {n - 2, n - 2, n}};
  const std::vector<box> shells{{{0, 0, 0}, {1, n, n}}, {{n - 1, 0, 0}, {1, n, n}}, {{1, 0, 0}, {n - 2, 1, n}}, {{1, n - 1, 0}, {n - 2, 1, n}}};
  auto run = [&](const char* name, auto&& body) {
    std::vector<double> gpu, host;
    for (int rep = 0; rep < 6; ++rep) {
      cudaDeviceSynchronize();
      const auto t0 = std::chrono::steady_clock::now();
      cudaEventRecord(a, compute);
      for (int k = 0; k < steps; ++k) body(k % 2 ? v : u, k % 2 ? u : v);
      const auto t1 = std::chrono::steady_clock::now();
      cudaEventRecord(b, compute);
      cudaEventSynchronize(b);
      float ms = 0;
      cudaEventElapsedTime(&ms, a, b);
      if (rep == 0) continue;
      gpu.push_back(ms / steps);
      host.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count() / steps);
    }
    std::sort(gpu.begin(), gpu.end());
    std::sort(host.begin(), host.end());
    std::printf("%-58s %.4f ms/step (GPU, median of 5 x %d steps), host enqueue %.4f ms/step\n", name, gpu[2], steps, host[2]);
  };
  auto boxes = [&](auto policy, const box& in_box, bool concurrent) {
    return [=, &compute, &shell, &start, &done, &step, &shells](const V& in, const V& out) {
      cudaEventRecord(start, compute);
      ts::apply(policy, step, in.box(in_box.f, in_box.c), out.box(in_box.f, in_box.c), compute);
      for (int s = 0; s < 4; ++s) {
        cudaStream_t st = concurrent ? shell[s] : compute;
        if (concurrent) cudaStreamWaitEvent(st, start);
        ts::apply(policy, step, in.box(shells[s].f, shells[s].c), out.box(shells[s].f, shells[s].c), st);
        if (concurrent) cudaEventRecord(done[s], st), cudaStreamWaitEvent(compute, done[s]);
      }
    };
  };
  auto only = [&](auto policy, const box& bx) {
    return [=, &compute, &step](const V& in, const V& out) { ts::apply(policy, step, in.box(bx.f, bx.c), out.box(bx.f, bx.c), compute); };
  };
  auto whole = [&](auto policy) { return [=, &compute, &step](const V& in, const V& out) { ts::apply(policy, step, in, out, compute); }; };
  using A = ts::cuda::automatic;
  using VS = ts::cuda::vector_streaming<>;
  run("whole block, automatic", whole(A{}));
  run("whole block, vector_streaming", whole(VS{}));
  run("inner box (1,1,0) 510x510x512, automatic", only(A{}, inner));
  run("inner box (0,0,0) 510x510x512, automatic", only(A{}, inner0));
  run("inner box (1,1,0), vector_streaming", only(VS{}, inner));
  run("inner + 4 shells concurrent (boxes only), automatic", boxes(A{}, inner, true));
  run("inner + 4 shells concurrent, vector_streaming", boxes(VS{}, inner, true));
  run("inner + 4 shells on one stream, automatic", boxes(A{}, inner, false));
  // a 2x2x1 rank at grid coordinates (0, 0): neighbours on the high faces only
  const box inner2{{0, 0, 0}, {n - 1, n - 1, n}};
  const std::vector<box> shells2{{{n - 1, 0, 0}, {1, n, n}}, {{0, n - 1, 0}, {n - 1, 1, n}}};
  auto boxes2 = [&](auto policy, int slabs) {
    return [=, &compute, &shell, &start, &done, &step, &shells2](const V& in, const V& out) {
      cudaEventRecord(start, compute);
      for (int k = 0; k < slabs; ++k) {
        box b = inner2;
        b.f[0] = inner2.c[0] * k / slabs;
        b.c[0] = inner2.c[0] * (k + 1) / slabs - b.f[0];
        ts::apply(policy, step, in.box(b.f, b.c), out.box(b.f, b.c), compute);
      }
      for (int s = 0; s < 2; ++s) {
        cudaStreamWaitEvent(shell[s], start);
        ts::apply(policy, step, in.box(shells2[s].f, shells2[s].c), out.box(shells2[s].f, shells2[s].c), shell[s]);
        cudaEventRecord(done[s], shell[s]), cudaStreamWaitEvent(compute, done[s]);
      }
    };
  };
  run("inner 511x511x512 + 2 shells (neighbours high only)", boxes2(A{}, 1));
  run("the same, inner as 2 slabs along axis 0", boxes2(A{}, 2));
  run("the same, inner as 4 slabs along axis 0", boxes2(A{}, 4));
  for (int s = 0; s < 4; ++s) {
    char name[80];
    std::snprintf(name, sizeof name, "shell %d alone %dx%dx%d, automatic", s, int(shells[s].c[0]), int(shells[s].c[1]), int(shells[s].c[2]));
    run(name, only(A{}, shells[s]));
  }
  std::printf("cuda error: %s\n", cudaGetErrorString(cudaGetLastError()));
}
