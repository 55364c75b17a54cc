// tessera: the command-line front end.
//
//   tessera             demo: a 3D 7-point Laplacian run with every policy in this build
//                       (CUDA ones when a GPU is present), each validated against Kokkos
//   tessera list        policies and shapes in this build, and the GPU if any
//   tessera --help
//
// Exit codes: 0 success, 1 a run or validation failed, 2 bad usage.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "policy_list.hpp"

namespace ts = tessera;

namespace {

constexpr const char* usage =
    "usage: tessera [list | demo] [--size N] [--help]\n"
    "\n"
    "  (no command), demo   Run a 3D 7-point Laplacian (2nd order) sweep\n"
    "                       with every policy in this build and validate each against the\n"
    "                       Kokkos reference; prints a table. --size N sets the cube edge\n"
    "                       (default 96).\n"
    "  list                 Policies and shapes available in this build, and the GPU if any.\n"
    "\n"
    "Exit status: 0 success, 1 a run or validation failed, 2 bad usage.\n";

struct row {
  std::string policy, space, status;
  double ms = 0, gcells = 0, rel_err = 0;
  bool ok = false;
};

template <class Space, class Policy>
row run_one(const Policy& policy, int n) {
  row r;
  r.policy = Policy::name();
  r.space = Space::name;
  try {
    ts::View<double, 3, ts::HostSpace> init("u_init", ts::extents{n, n, n}, 1);
    // A smooth field with a known Laplacian is a better demo than noise: u = sin(x) cos(2y) z^2.
    const double h = 1.0 / n;
    for (int z = -1; z <= n; ++z)
      for (int y = -1; y <= n; ++y)
        for (int x = -1; x <= n; ++x)
          init(z, y, x) = std::sin(x * h) * std::cos(2 * y * h) * (z * h) * (z * h);
    ts::View<double, 3, Space> u("u", init.layout()), lap_u("lap_u", init.layout());
    ts::deep_copy(u, init);
    const auto lap = ts::fd::laplacian<3, 2>(h);
    ts::apply(policy, lap, u, lap_u);  // warm-up (first-use set-up, caches)
#if TESSERA_ENABLE_CUDA
    if constexpr (!Space::host_accessible) ts::cuda::synchronize();
#endif
    const auto t0 = std::chrono::steady_clock::now();
    const int reps = 5;
    for (int k = 0; k < reps; ++k) ts::apply(policy, lap, u, lap_u);
#if TESSERA_ENABLE_CUDA
    if constexpr (!Space::host_accessible) ts::cuda::synchronize();
#endif
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / reps;
    r.ms = s * 1e3;
    r.gcells = double(n) * n * n / s * 1e-9;
    const auto report = ts::validate(policy, lap, u);
    r.rel_err = report.scaled_error;
    r.ok = report.passed;
    r.status = report.passed ? "pass" : "FAIL (nonfinite " + std::to_string(report.result.nonfinite) +
                                            " at " + report.result.worst_index_string() + ")";
  } catch (const ts::error& e) {
    r.status = std::string("error: ") + e.what();
  }
  return r;
}

int demo(int n) {
  std::printf("tessera demo: 3D 7-point Laplacian (fd::laplacian<3, 2>), %dx%dx%d doubles, ghost 1\n",
              n, n, n);
  std::printf("reference: kokkos:mdrange on %s; pass when max |difference| <= %.0e x S,\n"
              "S = sum|c| * max|u| (the scale of a sweep's rounding error)\n\n",
              ts::kokkos::execution_space_name().c_str(), ts::default_tolerance<double>());
  std::vector<row> rows;
  ts::app::for_each_host_policy([&](auto p) { rows.push_back(run_one<ts::HostSpace>(p, n)); });
#if TESSERA_ENABLE_CUDA
  if (ts::app::cuda_device_present())
    ts::app::for_each_cuda_policy([&](auto p) { rows.push_back(run_one<ts::CudaSpace>(p, n)); });
  else
    std::printf("(CUDA backend built, but no CUDA device found: GPU policies skipped)\n\n");
#else
  std::printf("(built without CUDA: GPU policies not available)\n\n");
#endif
  std::printf("%-32s %-10s %10s %10s %12s  %s\n", "policy", "space", "ms/sweep", "GCells/s",
              "error/scale", "vs Kokkos");
  bool all_ok = true;
  for (const auto& r : rows) {
    std::printf("%-32s %-10s %10.3f %10.3f %12.2e  %s\n", r.policy.c_str(), r.space.c_str(), r.ms,
                r.gcells, r.rel_err, r.status.c_str());
    all_ok = all_ok && r.ok;
  }
  std::printf("\n%s\n", all_ok ? "all policies agree with the Kokkos reference"
                                : "SOME POLICIES FAILED validation");
  return all_ok ? 0 : 1;
}

int list() {
  std::printf("policies in this build:\n");
  ts::app::for_each_host_policy([](auto p) { std::printf("  %s\n", decltype(p)::name().c_str()); });
#if TESSERA_ENABLE_CUDA
  ts::app::for_each_cuda_policy([](auto p) { std::printf("  %s\n", decltype(p)::name().c_str()); });
  const int dev = ts::cuda::device_count();
  if (dev > 0)
    std::printf("GPU: %s\n", ts::cuda::device_description(0).c_str());
  else
    std::printf("GPU: none found (CUDA backend built; CUDA policies need a device)\n");
#else
  std::printf("GPU: CUDA backend not built (configure with -DTESSERA_ENABLE_CUDA=ON)\n");
#endif
  std::printf("shapes: star<Rank, Radius> and box<Rank, Radius> for Rank 1-3 (any radius), and\n"
              "        user-declared point lists; fd:: builds derivative and Laplacian stencils\n"
              "        of order 2, 4, 6, 8\n");
  std::printf("Kokkos reference: %s\n", ts::kokkos::execution_space_name().c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::string cmd = "demo";
  int n = 96;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--help" || a == "-h") {
      std::fputs(usage, stdout);
      return 0;
    } else if (a == "--size" && i + 1 < argc) {
      char* end = nullptr;
      const long v = std::strtol(argv[++i], &end, 10);
      if (*end != '\0' || v < 1 || v > 2048) {
        std::fprintf(stderr, "tessera: --size wants an integer in [1, 2048], got '%s'\n", argv[i]);
        return 2;
      }
      n = static_cast<int>(v);
    } else if (a == "list" || a == "demo") {
      cmd = a;
    } else {
      std::fprintf(stderr, "tessera: unknown argument '%s'\n\n%s", a.c_str(), usage);
      return 2;
    }
  }
  try {
    return cmd == "list" ? list() : demo(n);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tessera: %s\n", e.what());
    return 1;
  }
}
