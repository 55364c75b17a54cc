// tessera-bench: one-sweep throughput of every CUDA policy against the device's own
// copy bandwidth, measured in the same run.
//
//   roofline   cudaMemcpy device-to-device; bytes = read + written
//   per case   warm-up, then --reps timed sweeps (CUDA events), each on the next of
//              several input buffers so the working set exceeds L2; median/min/max
//   ideal      each interior input point read once and each output point written once:
//              2 * points * sizeof(T) bytes; effective GB/s = ideal / median time
//
// Output: a console table, and --csv FILE / --json FILE. --smoke runs tiny sizes once
// and only checks that every policy agrees with naive (used by ctest; times nothing).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include <omp.h>

#include <optional>

#include <tessera/tessera.hpp>

#include "bench_fields.hpp"
#include "bench_options.hpp"
#include "bench_result.hpp"
#include "host_bench.hpp"
#include "median.hpp"
#include "family_bench.hpp"
#include "gpu_events.hpp"
#include "l2_rotation.hpp"
#include "point_bench.hpp"
#include "solver_bench.hpp"
#include "steps_bench.hpp"
#include "user_case.hpp"
#include "variants.hpp"

namespace ts = tessera;
namespace cu = tessera::cuda;

namespace {

using tessera::bench::options;

using tessera::bench::median;
using tessera::bench::result;
using tessera::bench::summarise;

using tessera::bench::events;

/// Device-to-device copy bandwidth (read + write bytes per second), median of reps.
double copy_bandwidth_gbs(int reps, std::size_t bytes) {
  void *src = nullptr, *dst = nullptr;
  TESSERA_CUDA_CHECK(cudaMalloc(&src, bytes), "bench copy source");
  TESSERA_CUDA_CHECK(cudaMalloc(&dst, bytes), "bench copy destination");
  cudaMemset(src, 1, bytes);
  events ev;
  std::vector<double> t;
  for (int r = 0; r < reps + 3; ++r) {
    cudaEventRecord(ev.a);
    cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToDevice);
    cudaEventRecord(ev.b);
    const double ms = ev.elapsed_ms();
    if (r >= 3) t.push_back(ms);
  }
  cudaFree(src);
  cudaFree(dst);
  return 2.0 * bytes / (median(t) * 1e-3) * 1e-9;
}

using tessera::bench::patterned_field;
using tessera::bench::tile_arguments;

template <class S, class T, bool Variants = false, int Rank>
void run_case(const options& opt, const ts::extents<Rank>& e, double copy_gbs, std::vector<result>& out,
              bool& all_agree) {
  const int g = ts::shape_traits<S>::radius;
  const auto init = patterned_field<T>(e, g);
  const int nbuf = opt.smoke ? 1 : ts::bench::buffers_beyond_l2(init.allocation_bytes());
  std::vector<ts::View<T, Rank, ts::CudaSpace>> ins;
  for (int b = 0; b < nbuf; ++b) {
    ins.emplace_back("in" + std::to_string(b), init.layout());
    ts::deep_copy(ins.back(), init);
  }
  ts::View<T, Rank, ts::CudaSpace> ref("naive_out", init.layout()), o("out", init.layout());
  ts::stencil<S, T> st;
  for (int k = 0; k < st.size; ++k) st[k] = static_cast<T>(0.1 * (k + 1)) / st.size;
  const double points = static_cast<double>(e.size());
  const double ideal = 2.0 * points * sizeof(T);
  double naive_ms = 0;
  const std::string shape = ts::shape_name<S>(), prec = sizeof(T) == 4 ? "float" : "double";

  auto time_policy = [&](auto policy) {
    using P = decltype(policy);
    if (!opt.only_policy.empty() && P::name() != opt.only_policy && !std::is_same_v<P, cu::naive<>>) return;
    result r;
    r.shape = shape, r.precision = prec, r.size = e.to_string(), r.policy = P::name();
    r.shape_class = cu::shape_class_of<S>::name, r.rank = S::rank, r.radius = g;
    const auto plan = cu::plan_for<S, T>(policy, e);
    if (!plan.ok()) {
      r.note = "n/a: " + plan.reason.substr(0, 60) + "...";
      out.push_back(r);
      return;
    }
    ts::apply(policy, st, ins[0], o);  // warm-up and correctness
    cu::synchronize();
    if (!std::is_same_v<P, cu::naive<>>) {
      const auto c = ts::compare(o, ref);
      if (!c.passed(ts::default_tolerance<T>())) {
        all_agree = false;
        r.note = "MISMATCH vs naive: rel " + std::to_string(c.max_rel_error);
      }
    } else {
      ts::deep_copy(ref, o);
    }
    if (!opt.smoke) {
      events ev;
      std::vector<double> t;
      for (int k = 0; k < opt.reps; ++k) {
        cudaEventRecord(ev.a);
        ts::apply(policy, st, ins[k % nbuf], o);
        cudaEventRecord(ev.b);
        t.push_back(ev.elapsed_ms());
      }
      summarise(r, t, points, ideal, copy_gbs);
      if (std::is_same_v<P, cu::naive<>>) naive_ms = r.median_ms;
      r.speedup = naive_ms > 0 ? naive_ms / r.median_ms : 0;
    }
    r.ran = true;
    out.push_back(r);
  };
  // naive first (the reference every other policy is checked against and the "vs naive"
  // column), then every other listed strategy with its default tiles.
  time_policy(cu::naive<>{});
  ts::for_each_type(cu::strategies{}, [&](auto policy) {
    if constexpr (!std::is_same_v<decltype(policy), cu::naive<>>) time_policy(policy);
  });
  if constexpr (Variants) {
    if (opt.variants) {
      namespace tb = tessera::bench;
      auto variant = [&](auto policy) {
        const auto before = out.size();
        time_policy(policy);
        if (out.size() > before) out.back().policy += tile_arguments(policy);
      };
      if constexpr (Rank == 3) {
        variant(tb::pl_128x4x4x1{});
        variant(tb::pl_128x4x4x2{});
        variant(tb::pl_128x4x4x3{});
        variant(tb::pl_64x4x4x3{});
        variant(tb::pl_256x2x4{});
        variant(tb::pl_128x2x8{});
      } else {
        variant(tb::pl2_128x4x8{});
        variant(tb::pl2_256x2x8{});
        variant(tb::pl2_256x4x4{});
        variant(tb::pl2_128x4x2{});
      }
      // the default kernel with another chunk (a launch argument: nothing instantiated)
      variant(tb::pl_chunk4{});
      variant(tb::pl_chunk8{});
      variant(tb::pl_chunk16{});
      variant(tb::pl_chunk32{});
      variant(tb::pl_chunk64{});
      variant(tb::pl_chunk128{});
      variant(tb::vs_4{});
      if constexpr (Rank == 3) variant(tb::vs_8{});
      else variant(tb::vs_16{});
      variant(tb::vs_depth2{});
      variant(tb::vs_chunk2{});
      variant(tb::vs_chunk4{});
      variant(tb::vs_chunk8{});
      variant(tb::vs_chunk16{});
    }
  }
  time_policy(cu::automatic{});
}

void print(const std::vector<result>& rs) {
  std::printf("\n%-10s %-7s %-12s %-30s %9s %9s %9s %9s %8s %6s %8s  %s\n", "shape", "type", "size",
              "policy", "med ms", "min ms", "max ms", "GCell/s", "GB/s", "frac", "vs naive", "note");
  for (const auto& r : rs) {
    if (!r.ran || r.median_ms == 0) {
      std::printf("%-10s %-7s %-12s %-30s %9s %9s %9s %9s %8s %6s %8s  %s\n", r.shape.c_str(),
                  r.precision.c_str(), r.size.c_str(), r.policy.c_str(), "-", "-", "-", "-", "-", "-", "-",
                  r.note.c_str());
      continue;
    }
    std::printf("%-10s %-7s %-12s %-30s %9.3f %9.3f %9.3f %9.2f %8.0f %6.2f %8.2f  %s\n", r.shape.c_str(),
                r.precision.c_str(), r.size.c_str(), r.policy.c_str(), r.median_ms, r.min_ms, r.max_ms,
                r.gcells, r.gbs, r.fraction, r.speedup, r.note.c_str());
  }
}

/// Per (shape, precision, size): the fastest candidate of cuda::automatic. Rows for
/// backends/cuda/tuning/table.csv.
void write_tuning_table(const std::string& path, const std::vector<result>& rs, const cu::device_limits& lim) {
  std::ofstream f(path);
  f << "architecture,multiprocessors,bandwidth_tbs,shape_class,rank,radius,precision,points_log2,policy,note\n";
  const auto dc = cu::class_of(lim);
  char bw[32];
  std::snprintf(bw, sizeof bw, "%.2f", dc.bandwidth_tbs);
  std::vector<std::string> done;
  for (const auto& r : rs) {
    const std::string id = r.shape + r.precision + r.size;
    if (!r.ran || r.median_ms <= 0 || !cu::candidate_from_name(r.policy) ||
        std::find(done.begin(), done.end(), id) != done.end())
      continue;
    done.push_back(id);
    const result* best = nullptr;
    double points = 1;
    for (const auto& o : rs)
      if (o.shape == r.shape && o.precision == r.precision && o.size == r.size && o.ran && o.median_ms > 0 &&
          cu::candidate_from_name(o.policy) && (!best || o.median_ms < best->median_ms))
        best = &o, points = o.gcells * o.median_ms * 1e6;
    f << "sm_" << dc.sm << ',' << dc.multiprocessors << ',' << bw << ',' << r.shape_class << ',' << r.rank << ','
      << r.radius << ',' << r.precision << ',' << cu::points_log2(points) << ',' << best->policy << ",\"" << lim.name
      << ": " << r.size << ": " << std::to_string(best->fraction).substr(0, 4) << " of copy\"\n";
  }
}

/// cuda::automatic against the fastest default-tile policy of each case.
void report_automatic(const std::vector<result>& rs) {
  int cases = 0, within = 0;
  for (const auto& a : rs) {
    if (a.policy != "cuda:automatic" || !a.ran || a.median_ms <= 0) continue;
    double fastest = 1e300;
    std::string who;
    for (const auto& r : rs)
      if (r.shape == a.shape && r.precision == a.precision && r.size == a.size && r.ran && r.median_ms > 0 &&
          r.policy.find('<') == std::string::npos && r.median_ms < fastest)
        fastest = r.median_ms, who = r.policy;
    ++cases;
    const double ratio = fastest / a.median_ms;
    if (ratio >= 0.95) ++within;
    else std::printf("automatic at %.2f of the fastest (%s) for %s %s %s\n", ratio, who.c_str(), a.shape.c_str(), a.precision.c_str(), a.size.c_str());
  }
  std::printf("cuda:automatic within 5%% of the fastest policy in %d of %d cases\n", within, cases);
}

void write_csv(const std::string& path, const std::vector<result>& rs, double copy_gbs) {
  std::ofstream f(path);
  f << "shape,precision,size,policy,median_ms,min_ms,max_ms,gcells_per_s,effective_gbs,fraction_of_copy,"
       "speedup_vs_naive,copy_gbs,note\n";
  for (const auto& r : rs)
    f << '"' << r.shape << "\"," << r.precision << ',' << r.size << ",\"" << r.policy << "\"," << r.median_ms << ','
      << r.min_ms << ',' << r.max_ms << ',' << r.gcells << ',' << r.gbs << ',' << r.fraction << ',' << r.speedup
      << ',' << (r.roofline_gbs > 0 ? r.roofline_gbs : copy_gbs) << ",\"" << r.note << "\"\n";
}

void write_json(const std::string& path, const std::vector<result>& rs, double copy_gbs, const std::string& dev) {
  std::ofstream f(path);
  f << "{\n  \"device\": \"" << dev << "\",\n  \"copy_gbs\": " << copy_gbs << ",\n  \"results\": [\n";
  for (std::size_t i = 0; i < rs.size(); ++i) {
    const auto& r = rs[i];
    f << "    {\"shape\": \"" << r.shape << "\", \"precision\": \"" << r.precision << "\", \"size\": \"" << r.size
      << "\", \"policy\": \"" << r.policy << "\", \"median_ms\": " << r.median_ms << ", \"min_ms\": " << r.min_ms
      << ", \"max_ms\": " << r.max_ms << ", \"effective_gbs\": " << r.gbs << ", \"fraction_of_copy\": "
      << r.fraction << ", \"speedup_vs_naive\": " << r.speedup << ", \"ran\": " << (r.ran ? "true" : "false")
      << "}" << (i + 1 < rs.size() ? "," : "") << "\n";
  }
  f << "  ]\n}\n";
}

/// The user's case (--shape, --size, --precision): the sweep of every policy (or --policy's)
/// on it, and with --fused its fused time stepping (2D and 3D).
template <class T>
void run_user_case(const options& opt, double copy_gbs, std::vector<result>& rs, bool& agree) {
  const auto& c = opt.user;
  auto try_shape = [&]<class S>() {
    if (cu::shape_class_of<S>::name != c.shape_class || S::rank != c.rank || ts::shape_traits<S>::radius != c.radius)
      return;
    ts::extents<S::rank> e{};
    for (int d = 0; d < S::rank; ++d) e[d] = static_cast<ts::index_t>(c.n[d]);
    run_case<S, T>(opt, e, copy_gbs, rs, agree);
  };
#define TESSERA_BENCH_TRY_SHAPE(unused, ...) try_shape.template operator()<__VA_ARGS__>();
  TESSERA_FOR_EACH_BUILTIN_SHAPE(TESSERA_BENCH_TRY_SHAPE, 0)
#undef TESSERA_BENCH_TRY_SHAPE
}

/// "" when name is a CUDA policy of the bench (a listed strategy or cuda:automatic); else why not.
std::string unknown_bench_policy(const std::string& name) {
  std::string names = "cuda:automatic";
  bool found = name == names;
  ts::for_each_type(cu::strategies{}, [&](auto policy) {
    names += ", " + decltype(policy)::name();
    found = found || decltype(policy)::name() == name;
  });
  return found ? std::string() : "--policy wants one of " + names + ", got '" + name + "'";
}

}  // namespace

int main(int argc, char** argv) {
  options opt;
  std::vector<std::pair<std::string, std::string>> user_args;  // checked after the loop, in order
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--smoke") opt.smoke = true;
    else if (a == "--variants") opt.variants = true;
    else if (a == "--quick") opt.quick = true;
    else if (a == "--iterate") opt.iterate = true;
    else if (a == "--fused") opt.fused = true;
    else if (a == "--fused-case" && i + 1 < argc) opt.fused = true, opt.fused_only = argv[++i];
    else if (a == "--faces" && i + 1 < argc) user_args.emplace_back(a, argv[++i]);
    else if (a == "--point-functions") opt.point_functions = true;
    else if (a == "--family") opt.family = true;
    else if ((a == "--shape" || a == "--size" || a == "--precision" || a == "--policy") && i + 1 < argc)
      user_args.emplace_back(a, argv[++i]);
    else if (a == "--no-host") opt.host = false;
    else if (a == "--host-only") opt.host_only = true;
    else if (a == "--solver") opt.solver = true;
    else if (a == "--host-size" && i + 1 < argc) opt.host_n = std::max(8, std::atoi(argv[++i]));
    else if (a == "--reps" && i + 1 < argc) opt.reps = std::max(1, std::atoi(argv[++i]));
    else if (a == "--csv" && i + 1 < argc) opt.csv = argv[++i];
    else if (a == "--json" && i + 1 < argc) opt.json = argv[++i];
    else if (a == "--tuning-table" && i + 1 < argc) opt.tuning_table = argv[++i];
    else if (a == "--help" || a == "-h") {
      std::puts("usage: tessera-bench [--reps N (20)] [--csv FILE] [--json FILE] [--tuning-table FILE] [--variants] [--quick] [--iterate] [--fused] [--point-functions] [--family] [--smoke]\n"
                "                     [--fused-case 'star<2,1>'] [--no-host] [--host-only] [--host-size N (256)] [--solver]\n"
                "       tessera-bench --shape star3d:2 --size 384x384x384 [--precision double] [--policy cuda:pipelined] [--fused [--faces periodic]]\n"
                "  --solver: time to solution of multigrid (V-cycles and one FMG pass: 3D 512^3 and 256^3,\n"
                "  2D 8191^2) and of cg with a multigrid preconditioner (k jumping 1000, 256^3) on the GPU,\n"
                "  multigrid on the CPU (2D 1023^2, 3D 127^3); cycles, DOF/s, each level's share.\n"
                "  GPU section: every CUDA policy against cudaMemcpy device-to-device (--quick: the\n"
                "  six target cases; --variants: pipelined tile/depth variants too).\n"
                "  iterate section (with --quick; --iterate: it alone): 100 steps of cuda:automatic per\n"
                "  boundary kind, per step against the copy floor (7-point fp32 512^3 and 256^3, fp64 384^3;\n"
                "  160^3 and 128^3: 1000 steps, also with step graphs, with launches not overlapped, with both).\n"
                "  fused section (with --quick; --fused: it alone): 100 steps with Dirichlet faces, one sweep\n"
                "  per step (cuda:automatic) against cuda:temporal-blocking at several steps per pass, in\n"
                "  GCell-updates/s and as a multiple of the one-sweep floor (copy GB/s / (2 sizeof T));\n"
                "  --fused-case TEXT: only its cases whose shape and size contain TEXT ('star<2,1>', '256x').\n"
                "  point-function section (--point-functions: it alone; --smoke checks it): tessera::physics\n"
                "  acoustic_step, div_k_grad (3D) and upwind_advection (2D), and the fp32 7-point stencil as a\n"
                "  point function (star7_as_point_fn: the point mainloops beside the GPU section's stencil\n"
                "  kernels), on cuda:naive, cuda:streaming, cuda:vector-streaming, cuda:pipelined,\n"
                "  cuda:shared-streaming and cuda:automatic, fp32 at 512^3, 256^3 and 64^3-192^3, fp64 at\n"
                "  384^3, 64^3 and 128^3, 2D at 8192^2 and 512^2-2048^2 (automatic's choice follows the size);\n"
                "  ideal bytes = every field read once and the output written once.\n"
                "  kernel-family section (--family: it alone; --smoke checks it): every CUDA strategy's\n"
                "  stencil kernel against its point-function mainloop running the same stencil\n"
                "  (as_point_function), timed alternately: 7-point fp32 512^3, 256^3, fp64 384^3, 27-point\n"
                "  box and 13-point star fp32 512^3, 2D 5-point fp32 8192^2.\n"
                "  user case (--shape star1d|star2d|star3d:1-4 or box2d|box3d:1-2, --size one extent per axis):\n"
                "  only that case, every policy or --policy's (naive too: the reference); --fused: its\n"
                "  fused time stepping instead, 100 steps of cuda:automatic against temporal blocking (its\n"
                "  default; also 3 steps a pass for the 7-point, the 13-point and the 27-point box in 3D, 2\n"
                "  for the 7-point, and persistent for the 7-point; --faces periodic: periodic faces, default\n"
                "  Dirichlet); --smoke: correctness only.\n"
                "  CPU section: 7-point n^3 on host:serial, host:parallel, kokkos:mdrange against\n"
                "  a parallel host copy loop (skipped by --quick, --smoke and --no-host).");
      return 0;
    } else {
      std::fprintf(stderr, "tessera-bench: unknown argument '%s' (try --help)\n", a.c_str());
      return 2;
    }
  }
  // The user's case, checked before anything is allocated: the shape first (the size's
  // rank depends on it), then the size, the precision and the policy.
  {
    std::string shape, size, precision = "float", faces, why;
    for (const auto& [option, value] : user_args) {
      if (option == "--shape") shape = value;
      else if (option == "--size") size = value;
      else if (option == "--precision") precision = value;
      else if (option == "--faces") faces = value;
      else opt.only_policy = value;
    }
    if (faces == "periodic") opt.periodic_faces = true;
    else if (!faces.empty() && faces != "dirichlet")
      why = "--faces '" + faces + "' is neither 'dirichlet' (the default) nor 'periodic'";
    if (why.empty() && !faces.empty() && (shape.empty() || !opt.fused))
      why = "--faces applies to a fused case of your own: give --shape, --size and --fused";
    if (why.empty() && !shape.empty()) why = ts::bench::parse_shape(shape, opt.user);
    bool precision_given = false;
    for (const auto& arg : user_args) precision_given = precision_given || arg.first == "--precision";
    if (why.empty() && !size.empty() && shape.empty())
      why = "--size needs --shape (the rank of the extents is the shape's)";
    if (why.empty() && precision_given && shape.empty())
      why = "--precision applies to a case of your own: give --shape and --size too";
    if (why.empty() && !shape.empty() && size.empty())
      why = "--shape needs --size (e.g. --shape star3d:2 --size 384x384x384)";
    if (why.empty() && !size.empty()) why = ts::bench::parse_user_size(size, opt.user);
    if (why.empty()) why = ts::bench::parse_precision(precision, opt.user);
    if (why.empty() && !opt.only_policy.empty()) why = unknown_bench_policy(opt.only_policy);
    if (!why.empty()) {
      std::fprintf(stderr, "tessera-bench: %s (try --help)\n", why.c_str());
      return 2;
    }
  }
  auto host_section = [&]() {
    const auto hs = ts::bench::run_host_section(opt.host_n, opt.reps);
    std::printf("\nCPU section (%d threads)", omp_get_max_threads());
    print(hs.rows);
    std::printf("(roofline of the CPU section: parallel host copy loop timed between each policy's repetitions,\n"
                " median %.1f GB/s read + write; each fraction is of the copies beside that policy)\n", hs.copy_gbs);
    return hs.rows;
  };
  if (opt.solver) {  // time to solution of multigrid and cg, on the GPU (when there is one) and the CPU
    std::vector<ts::bench::solver_row> rows;
    const bool gpu = cu::device_count() > 0 && !opt.host_only;
    bool ok = false;
    try {
      ok = ts::bench::run_solver_section(opt.reps, gpu, true, opt.smoke, rows);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "tessera-bench --solver: %s\n", e.what());
      return 1;
    }
    if (!opt.smoke) ts::bench::print_solver_rows(rows);
    if (!gpu && opt.smoke) {
      std::puts("SKIPPED: no CUDA device");
      return 0;
    }
    std::printf("%s\n", ok ? "every solve converged to its error bound" : "SOME SOLVES FAILED their error bound");
    return ok ? 0 : 1;
  }
  if (opt.host_only) {
    const auto hs = host_section();
    if (!opt.csv.empty()) write_csv(opt.csv, hs, 0);
    return 0;
  }
  if (cu::device_count() == 0) {
    std::puts("SKIPPED: no CUDA device");
    return 0;
  }
  try {
    const std::string dev = cu::device_description(0);
    std::printf("tessera-bench on %s, %s\n", dev.c_str(), opt.smoke ? "smoke (correctness only)" : "");
    const double copy_gbs = opt.smoke ? 1 : copy_bandwidth_gbs(opt.reps, std::size_t(1) << 30);
    std::vector<result> rs;
    bool agree = true;
    if (!opt.user.shape_class.empty()) {  // only the user's case
      if (opt.fused) ts::bench::run_fused_user_case(opt, copy_gbs, rs, agree);
      else if (opt.user.is_double) run_user_case<double>(opt, copy_gbs, rs, agree);
      else run_user_case<float>(opt, copy_gbs, rs, agree);
      if (!opt.smoke) print(rs);
      if (!opt.csv.empty()) write_csv(opt.csv, rs, copy_gbs);
      if (!opt.json.empty()) write_json(opt.json, rs, copy_gbs, dev);
      std::printf("%s\n", agree ? "all policies agree with naive" : "SOME POLICIES DISAGREE with naive");
      return agree ? 0 : 1;
    }
    if (opt.point_functions || opt.smoke) {  // point functions (opt.smoke: checked, with the rest)
      std::vector<ts::bench::point_row> prs;
      agree &= ts::bench::run_point_functions(opt.reps, opt.smoke, copy_gbs, prs);
      for (const auto& r : prs)
        if (r.note.rfind("MISMATCH", 0) == 0)
          std::printf("%s %s %s %s: %s\n", r.kernel.c_str(), r.precision.c_str(), r.size.c_str(), r.policy.c_str(),
                      r.note.c_str());
      if (opt.point_functions) {
        if (!opt.smoke) ts::bench::print_point_rows(prs, copy_gbs);
        if (!opt.csv.empty()) {
          std::ofstream f(opt.csv);
          f << "kernel,precision,size,policy,fields,median_ms,min_ms,max_ms,gcells_per_s,effective_gbs,fraction_of_copy,"
               "copy_gbs,note\n";
          for (const auto& r : prs)
            f << r.kernel << ',' << r.precision << ',' << r.size << ",\"" << r.policy << "\"," << r.fields << ','  // cuda:naive<32,8,2>: quoted
              << r.median_ms << ',' << r.min_ms << ',' << r.max_ms << ',' << r.gcells << ',' << r.gbs << ','
              << r.fraction << ',' << copy_gbs << ",\"" << r.note << "\"\n";
        }
        std::printf("%s\n", agree ? "all policies agree with naive" : "SOME POLICIES DISAGREE with naive");
        return agree ? 0 : 1;
      }
    }
    if (opt.family || opt.smoke) {  // stencil kernels against point mainloops (opt.smoke: checked)
      std::vector<ts::bench::family_row> frs;
      agree &= ts::bench::run_family(opt.reps, opt.smoke, frs);
      for (const auto& r : frs)
        if (r.note.find("MISMATCH") != std::string::npos)
          std::printf("%s %s %s %s: %s\n", r.shape.c_str(), r.precision.c_str(), r.size.c_str(), r.policy.c_str(),
                      r.note.c_str());
      if (opt.family) {
        if (!opt.smoke) ts::bench::print_family_rows(frs);
        if (!opt.csv.empty()) {
          std::ofstream f(opt.csv);
          f << "shape,precision,size,policy,stencil_ms,point_ms,stencil_gcells_per_s,point_gcells_per_s,ratio,"
               "stencil_plan,point_plan,note\n";
          for (const auto& r : frs)
            f << '"' << r.shape << "\"," << r.precision << ',' << r.size << ",\"" << r.policy << "\"," << r.stencil_ms
              << ',' << r.point_ms << ',' << r.stencil_gcells << ',' << r.point_gcells << ',' << r.ratio() << ",\""
              << r.stencil_plan << "\",\"" << r.point_plan << "\",\"" << r.note << "\"\n";
        }
        std::printf("%s\n", agree ? "all policies agree with naive" : "SOME POLICIES DISAGREE with naive");
        return agree ? 0 : 1;
      }
    }
    if (opt.quick) {  // the six cases the performance targets name
      const ts::extents<3> e{512, 512, 512};
      run_case<ts::star<3, 1>, float, true>(opt, e, copy_gbs, rs, agree);
      run_case<ts::star<3, 2>, float, true>(opt, e, copy_gbs, rs, agree);
      run_case<ts::star<3, 4>, float, true>(opt, e, copy_gbs, rs, agree);
      run_case<ts::box<3, 1>, float, true>(opt, e, copy_gbs, rs, agree);
      run_case<ts::star<3, 1>, double, true>(opt, e, copy_gbs, rs, agree);
      run_case<ts::star<2, 1>, float, true>(opt, ts::extents<2>{8192, 8192}, copy_gbs, rs, agree);
    }
    // time stepping (steps_bench.cpp): iterate with each boundary kind, then fused passes
    ts::bench::run_iterate_section(opt, copy_gbs, rs, agree);
    ts::bench::run_fused_section(opt, copy_gbs, rs, agree);
    if (opt.quick || opt.fused) {
      if (!opt.fused_only.empty() &&
          std::none_of(rs.begin(), rs.end(), [](const result& r) { return r.policy.rfind("fused:", 0) == 0; })) {
        std::fprintf(stderr,
                     "tessera-bench: --fused-case '%s' matches none of the fused cases (their shape and size, e.g. "
                     "'star<2,1> 8192x8192', 'box<3,1>', '256x')\n",
                     opt.fused_only.c_str());
        return 2;
      }
    }
    auto cubes = [&](auto t) {
      using T = decltype(t);
      for (int n : opt.smoke ? std::vector<int>{19} : std::vector<int>{512, 256}) {
        const ts::extents<3> e{n, n, n};
        run_case<ts::star<3, 1>, T, true>(opt, e, copy_gbs, rs, agree);
        run_case<ts::star<3, 2>, T, true>(opt, e, copy_gbs, rs, agree);
        run_case<ts::star<3, 4>, T, true>(opt, e, copy_gbs, rs, agree);
        run_case<ts::box<3, 1>, T, true>(opt, e, copy_gbs, rs, agree);
      }
      for (int n : opt.smoke ? std::vector<int>{77} : std::vector<int>{8192, 4096}) {
        const ts::extents<2> e{n, n};
        run_case<ts::star<2, 1>, T, true>(opt, e, copy_gbs, rs, agree);
        run_case<ts::box<2, 1>, T>(opt, e, copy_gbs, rs, agree);
      }
    };
    if (!opt.quick && !opt.iterate && !opt.fused) {
      cubes(float{});
      cubes(double{});
    }
    if (!opt.smoke) {
      print(rs);
      std::printf("\nroofline: device-to-device copy %.0f GB/s (read + write)\n", copy_gbs);
    }
    if (opt.host && !opt.quick && !opt.iterate && !opt.fused && !opt.smoke) {
      auto hs = host_section();
      rs.insert(rs.end(), hs.begin(), hs.end());
    }
    if (!opt.smoke) report_automatic(rs);
    if (!opt.tuning_table.empty()) write_tuning_table(opt.tuning_table, rs, cu::current_device_limits());
    if (!opt.csv.empty()) write_csv(opt.csv, rs, copy_gbs);
    if (!opt.json.empty()) write_json(opt.json, rs, copy_gbs, dev);
    for (const auto& r : rs)
      if (r.note.rfind("MISMATCH", 0) == 0) std::printf("%s %s %s %s: %s\n", r.shape.c_str(), r.precision.c_str(), r.size.c_str(), r.policy.c_str(), r.note.c_str());
    std::printf("%s\n", agree ? "all policies agree with naive" : "SOME POLICIES DISAGREE with naive");
    return agree ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tessera-bench: %s\n", e.what());
    return 1;
  }
}
