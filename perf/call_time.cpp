// tessera-call-time: what one apply call costs from C++ on the views the Python module
// makes (View::wrap over packed C-ordered memory, as a NumPy or CuPy array is), so that
// perf/python_call_time.py can set the Python module's per-call cost beside it. Prints CSV:
// case,microseconds (the median over --repeats blocks of --calls calls each).
//   host cases: 8^3 and 128^3 float64, host:serial and host:parallel (wall clock);
//   device cases (CUDA build, a GPU present): 8^3 and 512^3 float32, cuda:automatic
//   (CUDA events around the block of calls), and 512^3 on views tessera allocates (rows
//   padded to 128 bytes; the Python module's tessera.zeros lays its arrays out the same).
// Not a test: ctest never runs it.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <tessera/tessera.hpp>

#include "median.hpp"

namespace ts = tessera;

namespace {

int parse_count(const char* flag, const char* text) {
  char* end = nullptr;
  const long v = std::strtol(text, &end, 10);
  if (!end || *end != '\0' || v < 1 || v > 100000) {
    std::fprintf(stderr, "tessera-call-time: %s wants a count in 1..100000, got '%s'\n", flag, text);
    std::exit(2);
  }
  return static_cast<int>(v);
}

template <class T>
ts::layout<3> packed(ts::index_t n) {
  return ts::layout<3>::strided(ts::extents{n, n, n}, 1, ts::array<ts::index_t, 3>{{(n + 2) * (n + 2), n + 2, 1}});
}

template <class Policy, class T>
double host_call_us(ts::index_t n, int calls, int repeats) {
  const auto l = packed<T>(n);
  std::vector<T> a(static_cast<std::size_t>(l.span()), T(1)), b(a.size(), T(0));
  const auto u = ts::View<T, 3>::wrap("u", a.data(), l), v = ts::View<T, 3>::wrap("v", b.data(), l);
  const auto lap = ts::fd::laplacian<3, 2>(T(1));
  std::vector<double> t;
  for (int r = 0; r < repeats; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int c = 0; c < calls; ++c) ts::apply(Policy{}, lap, u, v);
    t.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / calls);
  }
  return ts::bench::median(t);
}

#if TESSERA_ENABLE_CUDA
/// owned: views tessera allocates (rows padded to 128 bytes, which the 16-byte-vector
/// strategies need) instead of wrapped packed memory: what a C++ program gets by default.
template <class T>
double device_call_us(ts::index_t n, int calls, int repeats, bool owned = false) {
  const auto l = packed<T>(n);
  void* pa = nullptr;
  void* pb = nullptr;
  const auto bytes = static_cast<std::size_t>(l.span()) * sizeof(T);
  if (cudaMalloc(&pa, bytes) != cudaSuccess || cudaMalloc(&pb, bytes) != cudaSuccess) {
    std::fprintf(stderr, "tessera-call-time: cudaMalloc of %zu bytes failed\n", bytes);
    std::exit(1);
  }
  cudaMemset(pa, 0, bytes);
  cudaMemset(pb, 0, bytes);
  const auto u = owned ? ts::View<T, 3, ts::CudaSpace>("u", ts::extents{n, n, n}, 1)
                       : ts::View<T, 3, ts::CudaSpace>::wrap("u", static_cast<T*>(pa), l);
  const auto v = owned ? ts::View<T, 3, ts::CudaSpace>("v", ts::extents{n, n, n}, 1)
                       : ts::View<T, 3, ts::CudaSpace>::wrap("v", static_cast<T*>(pb), l);
  const auto lap = ts::fd::laplacian<3, 2>(T(1));
  ts::apply(ts::cuda::automatic{}, lap, u, v);  // the first call plans and tunes
  cudaDeviceSynchronize();
  cudaEvent_t e0{}, e1{};
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  std::vector<double> t;
  for (int r = 0; r < repeats; ++r) {
    cudaEventRecord(e0);
    for (int c = 0; c < calls; ++c) ts::apply(ts::cuda::automatic{}, lap, u, v);
    cudaEventRecord(e1);
    cudaEventSynchronize(e1);
    float ms = 0;
    cudaEventElapsedTime(&ms, e0, e1);
    t.push_back(1000.0 * ms / calls);
  }
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  cudaFree(pa);
  cudaFree(pb);
  return ts::bench::median(t);
}
#endif

}  // namespace

int main(int argc, char** argv) {
  int calls = 200, repeats = 7;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--calls" && i + 1 < argc) calls = parse_count("--calls", argv[++i]);
    else if (a == "--repeats" && i + 1 < argc) repeats = parse_count("--repeats", argv[++i]);
    else {
      std::fprintf(stderr, "usage: tessera-call-time [--calls N] [--repeats N]\n");
      return 2;
    }
  }
  std::printf("case,microseconds\n");
  std::printf("host:serial 8^3 float64,%.3f\n", host_call_us<ts::host::serial, double>(8, calls * 10, repeats));
  std::printf("host:parallel 8^3 float64,%.3f\n", host_call_us<ts::host::parallel, double>(8, calls * 10, repeats));
  std::printf("host:parallel 128^3 float64,%.3f\n", host_call_us<ts::host::parallel, double>(128, 10, repeats));
#if TESSERA_ENABLE_CUDA
  if (ts::cuda::device_count() > 0) {
    std::printf("cuda:automatic 8^3 float32,%.3f\n", device_call_us<float>(8, calls * 10, repeats));
    std::printf("cuda:automatic 512^3 float32,%.3f\n", device_call_us<float>(512, calls / 4 + 1, repeats));
    std::printf("cuda:automatic 512^3 float32 padded rows,%.3f\n",
                device_call_us<float>(512, calls / 4 + 1, repeats, true));
  }
#endif
  return 0;
}
