// tessera: the command-line front end.
//
//   tessera             demo: a 3D 7-point Laplacian run with every policy in this build
//                       (CUDA ones when a GPU is present), each validated against Kokkos
//   tessera list        policies and shapes in this build, and the GPU if any
//   tessera run ...     a problem (heat3d, poisson2d, poisson3d, wave2d, seismic3d); run --help
//   tessera validate    every built-in shape with one policy against Kokkos
//   tessera --help
//
// Options take their value as the next argument or after '=' (--size 64, --size=64).
// Exit codes: 0 success, 1 a run or validation failed (or could not be done), 2 bad usage.
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include <tessera/io/atomic_file.hpp>

#include "memory.hpp"
#include "policy_names.hpp"
#include "problems.hpp"

namespace ts = tessera;

namespace {

constexpr const char* usage =
    "usage: tessera [demo] [--size N] [--policy NAME]\n"
    "       tessera list\n"
    "       tessera run --problem heat3d|poisson2d|poisson3d|wave2d|seismic3d [options]   (tessera run --help)\n"
    "       tessera validate [--policy NAME] [--size N]\n"
    "       tessera bench [ARGS]\n"
    "\n"
    "  (no command), demo   Run a 3D 7-point Laplacian (2nd order) sweep with every policy\n"
    "                       in this build (or --policy NAME) and validate each against the\n"
    "                       Kokkos reference; prints a table. --size N sets the cube edge\n"
    "                       (default 96).\n"
    "  list                 Policies and shapes available in this build, and the GPU if any.\n"
    "  run                  Run a problem; `tessera run --help` for its options.\n"
    "  validate             Every built-in shape, float and double, swept by --policy NAME\n"
    "                       (default automatic) and by Kokkos on random data of awkward\n"
    "                       extents (37x29x53, or N per axis with --size N); a table.\n"
    "  bench [ARGS]         The performance driver (tessera-bench ARGS; --help for its options).\n"
    "\n"
    "Options take their value as the next argument or after '=' (--size=64).\n"
    "Exit status: 0 success, 1 a run or validation failed, 2 bad usage.\n";

constexpr const char* run_usage =
    "usage: tessera run --problem heat3d|poisson2d|poisson3d|wave2d|seismic3d [--size N (64)]\n"
    "                   [--steps S (100)] [--order 2|4|6|8]\n"
    "                   [--solver multigrid|cg|jacobi] [--tol E (1e-10)] [--max-cycles C (50)]\n"
    "                   [--cycle V|W|F] [--smoother rbgs|jacobi|chebyshev] [--fmg]\n"
    "                   [--max-iterations M (cg 200, jacobi 1000000)]\n"
    "                   [--model layered|homogeneous] [--snapshots K] [--frequency F]\n"
    "                   [--precision float|double] [--policy NAME (automatic)]\n"
    "                   [--boundary dirichlet|periodic|neumann] [--dt DT] [--input FILE.npy|FILE.vti]\n"
    "                   [--output FILE.npy|FILE.vti|FILE.pvti] [--image FILE.png] [--write-through]\n"
    "                   [--validate]\n"
    "                   [--transport nccl|cuda-aware-mpi|host-staged]\n"
    "\n"
    "  heat3d: u_t = Laplacian(u) in the unit cube, explicit Euler, a hot Gaussian (or the\n"
    "  --input field, whose shape sets the size); dt defaults to 0.9 x the stability limit\n"
    "  and a larger one is refused. --validate repeats the run with kokkos:mdrange on the\n"
    "  host and compares. Policy names: see `tessera list`.\n"
    "  poisson2d, poisson3d: Laplacian(u) = f in the unit square / cube, f from an exact u\n"
    "  (sin(pi x)... for --boundary dirichlet, cos(pi x)... neumann, sin(2 pi x)... periodic;\n"
    "  the last two are singular: u is returned with mean zero). --solver multigrid (default:\n"
    "  V(2,2) cycles with red-black Gauss-Seidel, or --cycle W|F, --smoother jacobi|chebyshev,\n"
    "  --fmg for one full-multigrid pass first, at most --max-cycles), cg (preconditioned by\n"
    "  one multigrid cycle, at most --max-iterations) or jacobi (Dirichlet only). Each stops\n"
    "  when the residual is --tol x max|f| or at the precision's floor (float reaches it\n"
    "  first, and says so); converged when, besides, max |u - exact| is within 2x the\n"
    "  discretisation error, which the run prints. It prints the residual per cycle, the\n"
    "  convergence factor, time and DOF/s.\n"
    "  wave2d: u_tt = Laplacian(u), leapfrog, a Gaussian pulse at rest.\n"
    "  seismic3d: acoustic waves u_tt = c^2 Laplacian(u) + source, 8th order in space, a Ricker\n"
    "  wavelet at the centre, absorbing sponge layers on every face, through a --model (layered:\n"
    "  c = 1 over c = 2, default; homogeneous: c = 1); one point-function sweep of five fields a\n"
    "  step; the Ricker wavelet peaks at --frequency F (default: 12 points per wavelength up to\n"
    "  --size 64, then fixed at c_min 64/12, so that refining a grid resolves the same wavelet);\n"
    "  --steps defaults to the wavefront reaching 0.25 from the source (nearer on small grids);\n"
    "  --snapshots K writes\n"
    "  K numbered PNG sections (--image) and .vti fields (--output) during the run; --validate\n"
    "  compares with kokkos:mdrange and, for the homogeneous model, with the analytic solution\n"
    "  s(t - r/c) / (4 pi c^2 r). Policies: host ones, cuda:naive, automatic.\n"
    "  Under mpirun (MPI builds) heat3d and seismic3d run distributed over the processes; --output\n"
    "  .pvti then writes one .vti piece per process and an index ParaView opens as one field\n"
    "  (seismic3d's --snapshots too, numbered). poisson3d (Dirichlet, multigrid) runs distributed\n"
    "  multigrid: blocks halve while they start at even points (--size 2^k m - 1, 2 or 4 processes\n"
    "  an axis), the coarse level gathered onto every process.\n"
    "  heat3d, seismic3d and poisson3d with a cuda: policy put each rank on a GPU of its own; halos travel by\n"
    "  --transport (default: nccl where built and each rank has a GPU, else host-staged MPI).\n"
    "  Each option is given at most once, and one that the problem does not use is refused.\n"
    "  Outputs are written whole or not at all: a finished file is renamed onto the name, so\n"
    "  an interrupted or failed run leaves the earlier file as it was; a link, FIFO or device\n"
    "  named as an output is refused unless --write-through asks to write into it in place.\n"
    "  Output and image paths are checked before the run; a --size whose views do not fit\n"
    "  the machine's memory (or the GPU's) is refused before anything is allocated.\n";

int usage_error(const std::string& msg, const char* text) {
  std::fprintf(stderr, "tessera: %s\n\n%s", msg.c_str(), text);
  return 2;
}

bool parse_int(const std::string& s, long lo, long hi, int& out) {
  errno = 0;
  char* end = nullptr;
  const long v = std::strtol(s.c_str(), &end, 10);
  if (s.empty() || *end != '\0' || errno == ERANGE || v < lo || v > hi) return false;
  out = static_cast<int>(v);
  return true;
}

/// The command-line arguments from `first` on, as (option, value) pairs: "--size=8" and
/// "--size 8" both give ("--size", "8") for an option in `with_value`.
struct argument {
  std::string option;
  std::optional<std::string> value;
};
/// Splits argv; returns "" or the usage error (an option without its value).
std::string split_arguments(int argc, char** argv, int first, const std::vector<std::string>& with_value,
                            std::vector<argument>& out) {
  for (int i = first; i < argc; ++i) {
    std::string a = argv[i];
    std::optional<std::string> v;
    if (const auto eq = a.find('='); a.starts_with("--") && eq != std::string::npos) {
      v = a.substr(eq + 1);
      a = a.substr(0, eq);
    }
    const bool wants = std::find(with_value.begin(), with_value.end(), a) != with_value.end();
    if (wants && !v) {
      if (i + 1 >= argc) return a + " needs a value";
      v = argv[++i];
    }
    if (!wants && v) return a + " takes no value";
    out.push_back({a, v});
  }
  return {};
}

std::string policy_list_text() {
  std::string all;
  for (const auto& nm : ts::app::policy_names()) all += " " + nm;
  return all;
}

/// True when the named policy runs on a CUDA device (cuda:* always; automatic when a
/// device is present).
bool runs_on_gpu(const std::string& name) {
  bool gpu = false;
  ts::app::with_policy(name, [&](auto, auto tag) { gpu = !decltype(tag)::type::host_accessible; });
  return gpu;
}

/// "" when `name` is a policy of this build; else the usage error that lists them.
std::string unknown_policy(const std::string& name) {
  const auto names = ts::app::policy_names();
  if (std::find(names.begin(), names.end(), name) != names.end()) return {};
  return "unknown policy '" + name + "'; this build has:" + policy_list_text();
}

/// "" when the (known) policy `name` can run here; else why not: a cuda: policy without a
/// CUDA device.
std::string no_device_for(const std::string& name) {
  if (name.starts_with("cuda:") && !ts::app::cuda_device_present())
    return "policy '" + name + "' runs on a CUDA device, and none was found (use host:parallel, or automatic)";
  return {};
}

/// --size N: an integer in [1, 2048]; "" or the usage error.
std::string parse_size(const std::string& s, int& out) {
  return parse_int(s, 1, 2048, out) ? std::string() : "--size wants an integer in [1, 2048], got '" + s + "'";
}

/// The whole of s as a finite decimal number.
bool parse_real(const std::string& s, double& out) {
  char* end = nullptr;
  out = std::strtod(s.c_str(), &end);
  return !s.empty() && *end == '\0' && std::isfinite(out);
}

/// "" when `path` can be written (its folder takes a new file; it is no folder, and no
/// link, FIFO or device unless `through`); else why not. Checked before a run, so that
/// hours of work are not lost to a typo in a file name; the check makes and removes a file
/// of a unique name, touching no other.
std::string unwritable(const std::string& path, bool through) {
  if (path.empty()) return {};
  try {
    ts::io::check_writable(path, through ? ts::io::special_output::write_through : ts::io::special_output::refuse);
  } catch (const ts::io::io_error& e) {
    return e.what();
  }
  return {};
}

/// Flushes stdout; a failed write (a full disk, a closed pipe) is an error, not silence.
int finish(int status) {
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
    std::fprintf(stderr, "tessera: writing the output failed: %s\n", std::strerror(errno ? errno : EIO));
    return 1;
  }
  return status;
}

// --- demo ----------------------------------------------------------------------------------

struct row {
  std::string policy, space, status;
  double ms = 0, gcells = 0, rel_err = 0;
  bool ok = false, allocation_failed = false;
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
    r.status = report.passed ? "pass" : "FAIL: " + report.message;
  } catch (const ts::allocation_error& e) {
    r.allocation_failed = true;
    r.status = std::string("could not allocate: ") + e.what();
  } catch (const ts::error& e) {
    r.status = std::string("error: ") + e.what();
  }
  return r;
}

/// Views a demo row holds at once: the host field, u and lap_u, validate's two outputs,
/// Kokkos' staged input and output, and host mirrors of device views.
ts::app::memory_need demo_need(int n, bool on_gpu) {
  const auto one = ts::app::views_bytes<double, 3>(1, n, 1);
  if (!one) return {};
  return {*one * (on_gpu ? 5 : 7), *one * (on_gpu ? 4 : 0)};
}

int demo(int argc, char** argv, int first) {
  std::vector<argument> args;
  if (auto e = split_arguments(argc, argv, first, {"--size", "--policy"}, args); !e.empty())
    return usage_error(e, usage);
  int n = 96;
  std::string only;
  for (const auto& a : args) {
    if (a.option == "--help" || a.option == "-h") return std::fputs(usage, stdout), finish(0);
    if (a.option == "--size") {
      if (auto e = parse_size(*a.value, n); !e.empty()) return usage_error(e, usage);
    } else if (a.option == "--policy") {
      if (auto e = unknown_policy(*a.value); !e.empty()) return usage_error(e, usage);
      if (auto why = no_device_for(*a.value); !why.empty()) {
        std::printf("tessera demo: SKIPPED: %s\n", why.c_str());
        return finish(0);
      }
      only = *a.value;
    } else {
      return usage_error("unknown argument '" + a.option + "'", usage);
    }
  }
  const bool gpu = ts::app::cuda_device_present() && (only.empty() || runs_on_gpu(only));
  if (auto e = ts::app::check_memory("the demo", n, gpu, [&](int m) { return demo_need(m, gpu); }); !e.empty()) {
    std::fprintf(stderr, "tessera: %s\n", e.c_str());
    return 1;
  }
  std::printf("tessera demo: 3D 7-point Laplacian (fd::laplacian<3, 2>), %dx%dx%d doubles, ghost 1\n", n, n, n);
  std::printf("reference: kokkos:mdrange on %s; pass when max |difference| <= %.0e x S,\n"
              "S = sum|c| * max|u| (the scale of a sweep's rounding error)\n\n",
              ts::kokkos::execution_space_name().c_str(), ts::default_tolerance<double>());
  std::vector<row> rows;
  if (!only.empty()) {
    ts::app::with_policy(only, [&](auto p, auto tag) { rows.push_back(run_one<typename decltype(tag)::type>(p, n)); });
  } else {
    ts::app::for_each_host_policy([&](auto p) { rows.push_back(run_one<ts::HostSpace>(p, n)); });
#if TESSERA_ENABLE_CUDA
    if (ts::app::cuda_device_present())
      ts::app::for_each_cuda_policy([&](auto p) { rows.push_back(run_one<ts::CudaSpace>(p, n)); });
    else
      std::printf("SKIPPED: the GPU policies (CUDA backend built, but no CUDA device found)\n\n");
#else
    std::printf("(built without CUDA: GPU policies not available)\n\n");
#endif
  }
  std::printf("%-32s %-10s %10s %10s %12s  %s\n", "policy", "space", "ms/sweep", "GCells/s", "error/scale",
              "vs Kokkos");
  int failed = 0, unallocated = 0;
  for (const auto& r : rows) {
    std::printf("%-32s %-10s %10.3f %10.3f %12.2e  %s\n", r.policy.c_str(), r.space.c_str(), r.ms, r.gcells,
                r.rel_err, r.status.c_str());
    failed += !r.ok && !r.allocation_failed;
    unallocated += r.allocation_failed;
  }
  if (failed == 0 && unallocated == 0) std::printf("\nall policies agree with the Kokkos reference\n");
  if (failed) std::printf("\nSOME POLICIES FAILED validation (%d of %zu)\n", failed, rows.size());
  if (unallocated)
    std::printf("\n%d of %zu policies could not allocate their views (out of memory, not a wrong result): "
                "try a smaller --size\n",
                unallocated, rows.size());
  return finish(failed || unallocated ? 1 : 0);
}

// --- list ----------------------------------------------------------------------------------

int list() {
  std::printf("policies in this build:\n");
  ts::app::for_each_host_policy([](auto p) { std::printf("  %s\n", decltype(p)::name().c_str()); });
#if TESSERA_ENABLE_CUDA
  ts::app::for_each_cuda_policy([](auto p) { std::printf("  %s\n", decltype(p)::name().c_str()); });
  if (ts::cuda::device_count() > 0)
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
  return finish(0);
}

// --- validate ------------------------------------------------------------------------------

int validate(int argc, char** argv, int first) {
  std::vector<argument> args;
  if (auto e = split_arguments(argc, argv, first, {"--size", "--policy"}, args); !e.empty())
    return usage_error(e + " (validate)", usage);
  std::string policy = "automatic";
  int size = 0;
  for (const auto& a : args) {
    if (a.option == "--help" || a.option == "-h") return std::fputs(usage, stdout), finish(0);
    if (a.option == "--policy") policy = *a.value;
    else if (a.option == "--size") {
      if (auto e = parse_size(*a.value, size); !e.empty()) return usage_error(e, usage);
    } else return usage_error("unknown argument '" + a.option + "' for validate", usage);
  }
  if (auto e = unknown_policy(policy); !e.empty()) return usage_error(e, usage);
  if (auto why = no_device_for(policy); !why.empty()) {
    std::printf("tessera validate: SKIPPED: %s\n", why.c_str());
    return finish(0);
  }
  const bool gpu = runs_on_gpu(policy);
  // the largest grid: a 3D box of radius 2, in double; in, out, reference, Kokkos' two
  // staged copies, and host mirrors of device views
  auto need = [&](int m) -> ts::app::memory_need {
    const auto one = ts::app::views_bytes<double, 3>(1, m, 4);
    if (!one) return {};
    return {*one * (gpu ? 5 : 6), *one * (gpu ? 3 : 0)};
  };
  if (size > 0)
    if (auto e = ts::app::check_memory("tessera validate", size, gpu, need); !e.empty()) {
      std::fprintf(stderr, "tessera: %s\n", e.c_str());
      return 1;
    }
  std::printf("tessera validate: %s on %s against kokkos:mdrange (%s); random data, extents %s\n\n%-12s %-7s %12s  %s\n",
              policy.c_str(), gpu ? "CudaSpace" : "HostSpace", ts::kokkos::execution_space_name().c_str(),
              size > 0 ? ("N = " + std::to_string(size) + " per axis").c_str() : "53 / 29x53 / 37x29x53", "shape",
              "type", "error/scale", "result");
  const bool f = ts::app::validate_shapes<float>(policy, size);
  const bool d = ts::app::validate_shapes<double>(policy, size);
  std::printf("\n%s\n", f && d ? "every shape agrees with the Kokkos reference" : "SOME SHAPES FAILED");
  return finish(f && d ? 0 : 1);
}

// --- run -----------------------------------------------------------------------------------

/// Views a run holds at once, by problem (see run_heat.hpp, run_2d.hpp): the host
/// fields, the fields in the policy's space, and with --validate the reference run's.
ts::app::memory_need run_need(const ts::app::run_options& o, int n, bool gpu) {
  const bool single = o.precision == "float";
  if (o.problem == "seismic3d") {
    // six fields in the policy's space (three time levels with ghost 4, counted with it,
    // and three models); on the host the model's three, the result, a snapshot, and the
    // validation's six and result
    auto b = [&](int count) {
      return single ? ts::app::views_bytes<float, 3>(count, n, 4) : ts::app::views_bytes<double, 3>(count, n, 4);
    };
    const auto h = b(5 + (o.validate ? 7 : 0) + (gpu ? 0 : 6)), d = b(gpu ? 6 : 0);
    if (!h || !d) return {};
    return {*h, *d};
  }
  const bool is3d = o.problem == "heat3d" || o.problem == "poisson3d";
  const int g = o.problem == "heat3d" ? o.order / 2 : 1;
  auto bytes = [&](int count) {
    return is3d ? (single ? ts::app::views_bytes<float, 3>(count, n, g) : ts::app::views_bytes<double, 3>(count, n, g))
                : (single ? ts::app::views_bytes<float, 2>(count, n, g) : ts::app::views_bytes<double, 2>(count, n, g));
  };
  // in the policy's space / on the host beside them / the validation's extra host views.
  // Multigrid: f, u, and level 0's g, r, t, mask; the coarser levels add 1/3 of that in 2D,
  // 1/7 in 3D (counted as 2 more); cg 4 more; the exact solution in double on the host (2).
  const int space = o.problem == "heat3d"               ? 2
                    : o.problem.starts_with("poisson") ? (o.solver == "jacobi" ? 4 : o.solver == "cg" ? 12 : 8)
                                                        : 3;
  const int host = 2 + 2 + (o.problem.starts_with("poisson") ? 2 : 0);  // the problem's host fields, Kokkos' staged copies
  const int check = o.validate ? space + 1 : 0;
  const auto h = bytes(host + check + (gpu ? 0 : space)), d = bytes(gpu ? space : 0);
  if (!h || !d) return {};
  return {*h, *d};
}

int run_command(int argc, char** argv, int first) {
  static const std::vector<std::string> with_value = {
      "--problem", "--size",  "--steps", "--order", "--precision", "--policy",         "--boundary", "--dt",
      "--input",   "--output", "--image", "--tol",   "--model",     "--max-iterations", "--snapshots", "--transport",
      "--frequency", "--solver", "--max-cycles", "--cycle", "--smoother"};
  bool model_given = false;
  std::vector<argument> args;
  if (auto e = split_arguments(argc, argv, first, with_value, args); !e.empty()) return usage_error(e, run_usage);
  std::vector<std::string> given;  // each option at most once: a second value would silently win
  for (const auto& a : args) {
    if (a.option == "--help" || a.option == "-h") {
      std::fputs(run_usage, stdout);
      return finish(0);
    }
    if (std::find(given.begin(), given.end(), a.option) != given.end())
      return usage_error(a.option + " is given twice; give it once", run_usage);
    given.push_back(a.option);
  }
  ts::app::run_options o;
  for (const auto& a : args) {
    const std::string s = a.value.value_or("");
    if (a.option == "--validate") {
      o.validate = true;
    } else if (a.option == "--write-through") {
      o.write_through = true;
    } else if (a.option == "--fmg") {
      o.fmg = true;
    } else if (a.option == "--solver") {
      if (s != "multigrid" && s != "cg" && s != "jacobi")
        return usage_error("--solver wants multigrid, cg or jacobi, got '" + s + "'", run_usage);
      o.solver = s;
    } else if (a.option == "--cycle") {
      if (s != "V" && s != "W" && s != "F") return usage_error("--cycle wants V, W or F, got '" + s + "'", run_usage);
      o.cycle = s;
    } else if (a.option == "--smoother") {
      if (s != "rbgs" && s != "jacobi" && s != "chebyshev")
        return usage_error("--smoother wants rbgs, jacobi or chebyshev, got '" + s + "'", run_usage);
      o.smoother = s;
    } else if (a.option == "--max-cycles") {
      int m = 0;
      if (!parse_int(s, 1, 100000, m)) return usage_error("--max-cycles wants an integer from 1 to 100000, got '" + s + "'", run_usage);
      o.max_cycles = m;
    } else if (a.option == "--problem") {
      if (s != "heat3d" && s != "poisson2d" && s != "poisson3d" && s != "wave2d" && s != "seismic3d")
        return usage_error("unknown problem '" + s + "' (heat3d, poisson2d, poisson3d, wave2d, seismic3d)", run_usage);
      o.problem = s;
    } else if (a.option == "--size") {
      if (auto e = parse_size(s, o.size); !e.empty()) return usage_error(e, run_usage);
    } else if (a.option == "--steps") {
      if (!parse_int(s, 0, 100000000, o.steps)) return usage_error("--steps wants an integer >= 0, got '" + s + "'", run_usage);
      o.steps_given = true;
    } else if (a.option == "--order") {
      if (!parse_int(s, 2, 8, o.order) || o.order % 2) return usage_error("--order wants 2, 4, 6 or 8, got '" + s + "'", run_usage);
    } else if (a.option == "--precision") {
      if (s != "float" && s != "double") return usage_error("--precision wants float or double, got '" + s + "'", run_usage);
      o.precision = s;
    } else if (a.option == "--policy") {
      if (auto e = unknown_policy(s); !e.empty()) return usage_error(e, run_usage);
      o.policy = s;
    } else if (a.option == "--boundary") {
      if (s != "dirichlet" && s != "periodic" && s != "neumann")
        return usage_error("--boundary wants dirichlet, periodic or neumann, got '" + s + "'", run_usage);
      o.boundary = s;
    } else if (a.option == "--dt") {
      double d = 0;
      if (!parse_real(s, d) || !(d > 0)) return usage_error("--dt wants a positive number, got '" + s + "'", run_usage);
      o.dt = d;
    } else if (a.option == "--input") {
      if (!s.ends_with(".npy") && !s.ends_with(".vti"))
        return usage_error("--input wants a .npy or .vti file name, got '" + s + "'", run_usage);
      o.input = s;
    } else if (a.option == "--output") {
      if (!s.ends_with(".npy") && !s.ends_with(".vti") && !s.ends_with(".pvti"))
        return usage_error("--output wants a .npy, .vti or (under mpirun) .pvti file name, got '" + s + "'", run_usage);
      o.output = s;
    } else if (a.option == "--image") {
      if (!s.ends_with(".png")) return usage_error("--image wants a .png file name, got '" + s + "'", run_usage);
      o.image = s;
    } else if (a.option == "--tol") {
      double t = 0;
      if (!parse_real(s, t) || !(t > 0) || !(t <= 1e-3))
        return usage_error("--tol wants a relative residual in (0, 1e-3], got '" + s + "'", run_usage);
      o.tol = t;
    } else if (a.option == "--frequency") {
      double f = 0;
      if (!parse_real(s, f) || !(f > 0) || !(f <= 1e6))
        return usage_error("--frequency wants a peak frequency in (0, 1e6], got '" + s + "'", run_usage);
      o.frequency = f;
    } else if (a.option == "--max-iterations") {
      int m = 0;
      if (!parse_int(s, 1, 1000000000, m))
        return usage_error("--max-iterations wants an integer from 1 to 1000000000, got '" + s + "'", run_usage);
      o.max_iterations = m;
    } else if (a.option == "--model") {
      if (s != "layered" && s != "homogeneous")
        return usage_error("--model wants layered or homogeneous, got '" + s + "'", run_usage);
      o.model = s;
      model_given = true;
    } else if (a.option == "--transport") {
      if (s != "host-staged" && s != "cuda-aware-mpi" && s != "nccl")
        return usage_error("--transport wants host-staged, cuda-aware-mpi or nccl, got '" + s + "'", run_usage);
      o.transport = s;
    } else if (a.option == "--snapshots") {
      if (!parse_int(s, 0, 10000, o.snapshots))
        return usage_error("--snapshots wants an integer from 0 to 10000, got '" + s + "'", run_usage);
    } else {
      return usage_error("unknown argument '" + a.option + "'", run_usage);
    }
  }
  if ((model_given || o.snapshots > 0) && o.problem != "seismic3d")
    return usage_error("--model and --snapshots apply to seismic3d", run_usage);
  // An option the problem would ignore is refused by name.
  struct applies {
    const char* option;
    std::vector<std::string> problems;
  };
  static const applies table[] = {{"--steps", {"heat3d", "wave2d", "seismic3d"}},
                                  {"--dt", {"heat3d", "wave2d", "seismic3d"}},
                                  {"--tol", {"poisson2d", "poisson3d"}},
                                  {"--max-iterations", {"poisson2d", "poisson3d"}},
                                  {"--solver", {"poisson2d", "poisson3d"}},
                                  {"--max-cycles", {"poisson2d", "poisson3d"}},
                                  {"--cycle", {"poisson2d", "poisson3d"}},
                                  {"--smoother", {"poisson2d", "poisson3d"}},
                                  {"--fmg", {"poisson2d", "poisson3d"}},
                                  {"--input", {"heat3d"}},
                                  {"--frequency", {"seismic3d"}},
                                  {"--transport", {"heat3d", "seismic3d", "poisson3d"}}};
  for (const auto& t : table) {
    if (std::find(given.begin(), given.end(), t.option) == given.end()) continue;
    if (std::find(t.problems.begin(), t.problems.end(), o.problem) != t.problems.end()) continue;
    std::string list;
    for (std::size_t i = 0; i < t.problems.size(); ++i)
      list += (i == 0 ? "" : i + 1 == t.problems.size() ? " and " : ", ") + t.problems[i];
    std::string hint;
    if (std::string(t.option) == "--steps" && o.problem.starts_with("poisson"))
      hint = " (" + o.problem + " solves to --tol; cap it with --max-cycles, or --max-iterations for cg and jacobi)";
    return usage_error(std::string(t.option) + " applies to " + list + ", not " + o.problem + hint, run_usage);
  }
  if (o.snapshots > 0 && o.output.empty() && o.image.empty())
    return usage_error("--snapshots writes numbered copies of --output and --image; give at least one of them", run_usage);
  if (o.problem == "seismic3d" && o.boundary != "dirichlet")
    return usage_error("seismic3d absorbs waves in sponge layers; --boundary does not apply to it", run_usage);
  if (o.problem == "seismic3d" && o.size < 16)
    return usage_error("seismic3d needs --size 16 or more (sponge layers of 4 points on every face)", run_usage);
  if (o.problem == "seismic3d" && o.validate && o.model == "homogeneous" &&
      ts::app::seismic_analytic_window(o.size).points() < ts::app::seismic_analytic_min_points) {
    int fits = o.size;
    while (ts::app::seismic_analytic_window(fits).points() < ts::app::seismic_analytic_min_points) ++fits;
    return usage_error("seismic3d's analytic check (--model homogeneous --validate) reads at least " +
                           std::to_string(ts::app::seismic_analytic_min_points) +
                           " radii on each axis between 3h and the sponge; --size " + std::to_string(o.size) +
                           " leaves " + std::to_string(ts::app::seismic_analytic_window(o.size).points()) +
                           ": use --size " + std::to_string(fits) + " or more",
                       run_usage);
  }
  if (o.problem != "heat3d" && o.order != 2)
    return usage_error(o.problem + (o.problem == "seismic3d" ? " uses the 8th-order Laplacian" : " uses the 2nd-order Laplacian") +
                           "; --order applies to heat3d", run_usage);
  if (o.problem.starts_with("poisson")) {  // the options one solver would ignore
    const auto has = [&](const char* opt) { return std::find(given.begin(), given.end(), opt) != given.end(); };
    if (o.solver != "multigrid" && (has("--max-cycles") || has("--fmg")))
      return usage_error(std::string(has("--fmg") ? "--fmg" : "--max-cycles") + " applies to --solver multigrid, not " +
                             o.solver + (o.solver == "cg" ? " (cap cg with --max-iterations)" : ""),
                         run_usage);
    if (o.solver == "multigrid" && has("--max-iterations"))
      return usage_error("--max-iterations applies to --solver cg and jacobi; multigrid takes --max-cycles", run_usage);
    if (o.solver == "jacobi" && (has("--cycle") || has("--smoother")))
      return usage_error("--cycle and --smoother choose the multigrid cycle (--solver multigrid or cg), not jacobi",
                         run_usage);
    if (o.solver == "jacobi" && o.boundary != "dirichlet")
      return usage_error("--solver jacobi needs Dirichlet boundaries (periodic/Neumann problems are singular); use "
                         "multigrid or cg", run_usage);
    if (o.problem == "poisson3d" && o.solver == "jacobi" && o.size > 255)
      return usage_error("--solver jacobi on poisson3d --size " + std::to_string(o.size) +
                         " would take millions of sweeps; use multigrid (the default) or cg", run_usage);
    if (o.size < 2)
      return usage_error(o.problem + " needs --size 2 or more", run_usage);
  }
  // Everything that can be known before the run is checked before it.
  if (o.write_through && o.output.empty() && o.image.empty())
    return usage_error("--write-through writes --output or --image in place; give one of them", run_usage);
  for (const auto& path : {o.output, o.image})
    if (auto why = unwritable(path, o.write_through); !why.empty()) {
      std::fprintf(stderr, "tessera run: %s\n", why.c_str());
      return 1;
    }
  if (auto why = no_device_for(o.policy); !why.empty()) {
    std::fprintf(stderr, "tessera run: %s\n", why.c_str());
    return 1;
  }
#if TESSERA_ENABLE_MPI
  // Under mpirun with several processes: the distributed run (each process checks its
  // own block's memory as it allocates it).
  if (ts::app::launched_by_mpirun()) return finish(ts::app::run_distributed(o));
#endif
  if (!o.transport.empty())
    return usage_error("--transport chooses how halos travel between processes: mpirun -np N tessera run --policy "
                       "cuda:... --transport " + o.transport + " (in an MPI build, N > 1)",
                       run_usage);
  if (o.output.ends_with(".pvti"))
    return usage_error("--output .pvti (one piece per process) is written by distributed runs: mpirun -np N tessera "
                       "run --problem heat3d ... (in an MPI build); use .vti or .npy",
                       run_usage);
  if (o.input.empty()) {
    const bool gpu = runs_on_gpu(o.policy);
    if (auto e = ts::app::check_memory(o.problem + " (" + o.precision + ")", o.size, gpu,
                                       [&](int n) { return run_need(o, n, gpu); });
        !e.empty()) {
      std::fprintf(stderr, "tessera run: %s\n", e.c_str());
      return 1;
    }
  }
  try {
    const bool single = o.precision == "float";
    int status;
    if (o.problem == "poisson2d") status = single ? ts::app::run_poisson<float, 2>(o) : ts::app::run_poisson<double, 2>(o);
    else if (o.problem == "poisson3d") status = single ? ts::app::run_poisson<float, 3>(o) : ts::app::run_poisson<double, 3>(o);
    else if (o.problem == "wave2d") status = single ? ts::app::run_wave2d<float>(o) : ts::app::run_wave2d<double>(o);
    else if (o.problem == "seismic3d") status = single ? ts::app::run_seismic3d<float>(o) : ts::app::run_seismic3d<double>(o);
    else status = single ? ts::app::run_heat3d<float>(o) : ts::app::run_heat3d<double>(o);
    return finish(status);
  } catch (const std::exception& e) {
    std::fflush(stdout);
    std::fprintf(stderr, "tessera run: %s\n", e.what());
    return 1;
  }
}

}  // namespace

double tessera::app::poisson_default_tolerance(bool single_precision, int n) {
  const double eps = single_precision ? 1.1920928955078125e-07 : 2.220446049250313e-16;
  const double floor = 4 * eps * (n + 1.0) * (n + 1.0) / (2 * 9.869604401089358);
  return std::max(single_precision ? 1e-5 : 1e-10, 10 * floor);
}

/// OpenMP threads that wait for work spin by default (libgomp's OMP_WAIT_POLICY), and on a
/// machine where another process keeps a core busy, spinning threads and the thread they
/// wait for take turns on the cores: host:parallel ran heat3d 128^3 2-20x slower than
/// host:serial there, 2x faster with passive waiting. libgomp reads the policy when it is
/// loaded, before main, so the command sets it and starts itself again, once; a policy
/// the user set is kept.
void wait_passively(char** argv) {
  if (std::getenv("OMP_WAIT_POLICY") != nullptr) return;
  if (setenv("OMP_WAIT_POLICY", "PASSIVE", 0) != 0) return;
  execv("/proc/self/exe", argv);  // returns only where it failed: then the run spins
}

int main(int argc, char** argv) {
  wait_passively(argv);
  ts::io::remove_unfinished_outputs_on_signals("tessera");
  const std::string cmd = argc > 1 ? argv[1] : "";
  try {
    if (cmd == "run") return run_command(argc, argv, 2);
    if (cmd == "validate") return validate(argc, argv, 2);
    if (cmd == "list") {
      if (argc > 2) return usage_error(std::string("list takes no arguments, got '") + argv[2] + "'", usage);
      return list();
    }
    if (cmd == "bench") {
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
    if (cmd == "demo") return demo(argc, argv, 2);
    if (cmd.empty() || cmd.starts_with("-")) return demo(argc, argv, 1);
    return usage_error("unknown command '" + cmd + "'", usage);
  } catch (const std::exception& e) {
    std::fflush(stdout);
    std::fprintf(stderr, "tessera: %s\n", e.what());
    return 1;
  }
}
