// tessera: the command-line front end.
//
//   tessera             demo: a 3D 7-point Laplacian run with every policy in this build
//                       (CUDA ones when a GPU is present), each validated against Kokkos
//   tessera list        policies and shapes in this build, and the GPU if any
//   tessera run ...     a problem (heat3d) with output files and validation; run --help
//   tessera --help
//
// Exit codes: 0 success, 1 a run or validation failed, 2 bad usage.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <vector>

#include "policy_list.hpp"
#include "run_2d.hpp"
#include "validate_all.hpp"

namespace ts = tessera;

namespace {

constexpr const char* usage =
    "usage: tessera [demo | list | run ... | validate [--policy NAME] | bench ...] [--size N] [--help]\n"
    "\n"
    "  (no command), demo   Run a 3D 7-point Laplacian (2nd order) sweep\n"
    "                       with every policy in this build and validate each against the\n"
    "                       Kokkos reference; prints a table. --size N sets the cube edge\n"
    "                       (default 96).\n"
    "  list                 Policies and shapes available in this build, and the GPU if any.\n"
    "  run                  Run a problem; `tessera run --help` for its options.\n"
    "  bench [ARGS]         The performance driver (tessera-bench ARGS; --help for its options).\n"
    "  validate             Every built-in shape, float and double, swept by --policy NAME\n"
    "                       (default automatic) and by Kokkos on random data; a table.\n"
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

constexpr const char* run_usage =
    "usage: tessera run --problem heat3d|poisson2d|wave2d [--size N (64)] [--steps S (100)] [--tol E]\n"
    "                   [--order 2|4|6|8]\n"
    "                   [--precision float|double] [--policy NAME (automatic)]\n"
    "                   [--boundary dirichlet|periodic|neumann] [--dt DT] [--input FILE.npy]\n"
    "                   [--output FILE.npy|FILE.vti] [--image FILE.png] [--validate]\n"
    "\n"
    "  heat3d: u_t = Laplacian(u) in the unit cube, explicit Euler, a hot Gaussian (or the\n"
    "  --input field, whose shape sets the size); dt defaults to 0.9 x the stability limit\n"
    "  and a larger one is refused. --validate repeats the run with kokkos:mdrange on the\n"
    "  host and compares. Policy names: see `tessera list`.\n"
    "  poisson2d: Laplacian(u) = f in the unit square, Dirichlet 0, f from the exact\n"
    "  u = sin(pi x) sin(pi y); Jacobi until the residual is --tol x max|f| (--steps caps\n"
    "  the iterations); reports the error against the exact solution.\n"
    "  wave2d: u_tt = Laplacian(u), leapfrog, a Gaussian pulse at rest.\n";

int usage_error(const std::string& msg, const char* text) {
  std::fprintf(stderr, "tessera: %s\n\n%s", msg.c_str(), text);
  return 2;
}

bool parse_int(const char* s, long lo, long hi, int& out) {
  char* end = nullptr;
  const long v = std::strtol(s, &end, 10);
  if (*s == '\0' || *end != '\0' || v < lo || v > hi) return false;
  out = static_cast<int>(v);
  return true;
}

int run_command(int argc, char** argv, int first) {
  ts::app::run_options o;
  for (int i = first; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&](const char* what) -> const char* {
      if (i + 1 >= argc) return nullptr;
      (void)what;
      return argv[++i];
    };
    if (a == "--help" || a == "-h") {
      std::fputs(run_usage, stdout);
      return 0;
    } else if (a == "--validate") {
      o.validate = true;
    } else if (a == "--problem" || a == "--size" || a == "--steps" || a == "--order" || a == "--precision" ||
               a == "--policy" || a == "--boundary" || a == "--dt" || a == "--input" || a == "--output" ||
               a == "--image" || a == "--tol") {
      const char* v = value(a.c_str());
      if (!v) return usage_error(a + " needs a value", run_usage);
      const std::string s = v;
      if (a == "--problem") {
        if (s != "heat3d" && s != "poisson2d" && s != "wave2d")
          return usage_error("unknown problem '" + s + "' (heat3d, poisson2d, wave2d)", run_usage);
        o.problem = s;
      } else if (a == "--size") {
        if (!parse_int(v, 1, 2048, o.size)) return usage_error("--size wants an integer in [1, 2048], got '" + s + "'", run_usage);
      } else if (a == "--steps") {
        if (!parse_int(v, 0, 100000000, o.steps)) return usage_error("--steps wants an integer >= 0, got '" + s + "'", run_usage);
        o.steps_given = true;
      } else if (a == "--order") {
        if (!parse_int(v, 2, 8, o.order) || o.order % 2) return usage_error("--order wants 2, 4, 6 or 8, got '" + s + "'", run_usage);
      } else if (a == "--precision") {
        if (s != "float" && s != "double") return usage_error("--precision wants float or double, got '" + s + "'", run_usage);
        o.precision = s;
      } else if (a == "--policy") {
        const auto names = ts::app::policy_names();
        if (std::find(names.begin(), names.end(), s) == names.end()) {
          std::string all;
          for (const auto& nm : names) all += " " + nm;
          return usage_error("unknown policy '" + s + "'; this build has:" + all, run_usage);
        }
        o.policy = s;
      } else if (a == "--boundary") {
        if (s != "dirichlet" && s != "periodic" && s != "neumann")
          return usage_error("--boundary wants dirichlet, periodic or neumann, got '" + s + "'", run_usage);
        o.boundary = s;
      } else if (a == "--dt") {
        char* end = nullptr;
        const double d = std::strtod(v, &end);
        if (*end != '\0' || !(d > 0)) return usage_error("--dt wants a positive number, got '" + s + "'", run_usage);
        o.dt = d;
      } else if (a == "--input") {
        o.input = s;
      } else if (a == "--output") {
        if (!s.ends_with(".npy") && !s.ends_with(".vti"))
          return usage_error("--output wants a .npy or .vti file name, got '" + s + "'", run_usage);
        o.output = s;
      } else if (a == "--image") {
        if (!s.ends_with(".png")) return usage_error("--image wants a .png file name, got '" + s + "'", run_usage);
        o.image = s;
      } else {
        char* end = nullptr;
        const double t = std::strtod(v, &end);
        if (*end != '\0' || !(t > 0) || !(t < 1)) return usage_error("--tol wants a number in (0, 1), got '" + s + "'", run_usage);
        o.tol = t;
      }
    } else {
      return usage_error("unknown argument '" + a + "'", run_usage);
    }
  }
  if (o.problem != "heat3d" && o.order != 2)
    return usage_error(o.problem + " uses the 2nd-order Laplacian; --order applies to heat3d", run_usage);
  if (o.problem == "poisson2d" && o.boundary != "dirichlet")
    return usage_error("poisson2d solves with Dirichlet boundaries (periodic/Neumann Poisson problems are singular)", run_usage);
  if (o.tol && o.problem != "poisson2d") return usage_error("--tol applies to poisson2d", run_usage);
  if (!o.input.empty() && o.problem != "heat3d") return usage_error("--input applies to heat3d", run_usage);
  try {
    return ts::app::run_problem(o);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tessera run: %s\n", e.what());
    return 1;
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::string(argv[1]) == "run") return run_command(argc, argv, 2);
  if (argc > 1 && std::string(argv[1]) == "bench") {
    // The performance driver is its own program (perf/, built with the CUDA backend);
    // `tessera bench ARGS` runs it with ARGS, looked up beside this program (installed)
    // or in the build tree.
    std::error_code ec;
    const auto self = std::filesystem::read_symlink("/proc/self/exe", ec).parent_path();
    for (const auto& cand : {self / "tessera-bench", self / ".." / ".." / "perf" / "tessera-bench"}) {
      if (std::filesystem::exists(cand, ec)) {
        std::vector<char*> args;
        std::string prog = cand.string();
        args.push_back(prog.data());
        for (int i = 2; i < argc; ++i) args.push_back(argv[i]);
        args.push_back(nullptr);
        execv(prog.c_str(), args.data());
        std::fprintf(stderr, "tessera bench: cannot run %s\n", prog.c_str());
        return 1;
      }
    }
    std::fprintf(stderr, "tessera bench: the benchmark driver tessera-bench is not in this build (it needs the CUDA "
                         "backend: configure with nvcc available)\n");
    return 1;
  }
  if (argc > 1 && std::string(argv[1]) == "validate") {
    std::string policy = "automatic";
    for (int i = 2; i < argc; ++i) {
      const std::string a = argv[i];
      if (a == "--policy" && i + 1 < argc) policy = argv[++i];
      else if (a == "--help" || a == "-h") return std::fputs(usage, stdout), 0;
      else return usage_error("unknown argument '" + a + "' for validate", usage);
    }
    try {
      const int rc = ts::app::validate_all(policy);
      if (rc == 2) {
        std::string all;
        for (const auto& nm : ts::app::policy_names()) all += " " + nm;
        return usage_error("unknown policy '" + policy + "'; this build has:" + all, usage);
      }
      return rc;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "tessera validate: %s\n", e.what());
      return 1;
    }
  }
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
