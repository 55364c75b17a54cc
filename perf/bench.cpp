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
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include <tessera/tessera.hpp>

#include "variants.hpp"

namespace ts = tessera;
namespace cu = tessera::cuda;

namespace {

struct options {
  int reps = 20;
  bool smoke = false;
  bool variants = false;  // also time the streaming tile variants (variants.hpp)
  bool quick = false;     // only the 3D 7-point and 27-point fp32 at 512^3 (for profilers)
  std::string csv, json;
};

struct result {
  std::string shape, precision, size, policy, note;
  double median_ms = 0, min_ms = 0, max_ms = 0, gcells = 0, gbs = 0, fraction = 0, speedup = 0;
  bool ran = false;
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

struct events {
  cudaEvent_t a{}, b{};
  events() {
    cudaEventCreate(&a);
    cudaEventCreate(&b);
  }
  ~events() {
    cudaEventDestroy(a);
    cudaEventDestroy(b);
  }
  float elapsed_ms() {
    float ms = 0;
    cudaEventSynchronize(b);
    cudaEventElapsedTime(&ms, a, b);
    return ms;
  }
};

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

template <class S, class T, bool Variants = false, int Rank>
void run_case(const options& opt, const ts::extents<Rank>& e, double copy_gbs, std::vector<result>& out,
              bool& all_agree) {
  const int g = ts::shape_traits<S>::radius;
  const std::size_t l2 = [] {
    int dev = 0, bytes = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&bytes, cudaDevAttrL2CacheSize, dev);
    return static_cast<std::size_t>(bytes);
  }();
  ts::View<T, Rank, ts::HostSpace> init("init", e, g);
  {
    T* p = init.data();
    const auto n = init.layout().span();
    for (ts::index_t i = 0; i < n; ++i) p[i] = static_cast<T>((i * 2654435761u % 1000) * 1e-3);
  }
  const std::size_t bytes = init.allocation_bytes();
  const int nbuf = opt.smoke ? 1 : static_cast<int>(std::max<std::size_t>(2, (4 * l2 + bytes - 1) / bytes));
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
    result r;
    r.shape = shape, r.precision = prec, r.size = e.to_string(), r.policy = P::name();
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
      r.median_ms = median(t);
      r.min_ms = *std::min_element(t.begin(), t.end());
      r.max_ms = *std::max_element(t.begin(), t.end());
      r.gcells = points / (r.median_ms * 1e-3) * 1e-9;
      r.gbs = ideal / (r.median_ms * 1e-3) * 1e-9;
      r.fraction = r.gbs / copy_gbs;
      if (std::is_same_v<P, cu::naive<>>) naive_ms = r.median_ms;
      r.speedup = naive_ms > 0 ? naive_ms / r.median_ms : 0;
    }
    r.ran = true;
    out.push_back(r);
  };
  time_policy(cu::naive<>{});
  time_policy(cu::tiled<>{});
  time_policy(cu::coarsened<>{});
  time_policy(cu::register_tiled<>{});
  time_policy(cu::streaming<>{});
  if constexpr (Variants) {
    if (opt.variants) {
      namespace tb = tessera::bench;
      auto variant = [&](auto policy, const char* tiles) {
        const auto before = out.size();
        time_policy(policy);
        if (out.size() > before) out.back().policy += tiles;
      };
      variant(tb::streaming_32x4x64{}, "<32,4,64>");
      variant(tb::streaming_32x16x32{}, "<32,16,32>");
      variant(tb::streaming_64x4x64{}, "<64,4,64>");
      variant(tb::streaming_32x8x128{}, "<32,8,128>");
      variant(tb::streaming_32x8x16{}, "<32,8,16>");
    }
  }
  time_policy(cu::automatic{});
}

void print(const std::vector<result>& rs, double copy_gbs) {
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
  std::printf("\nroofline: device-to-device copy %.0f GB/s (read + write)\n", copy_gbs);
}

void write_csv(const std::string& path, const std::vector<result>& rs, double copy_gbs) {
  std::ofstream f(path);
  f << "shape,precision,size,policy,median_ms,min_ms,max_ms,gcells_per_s,effective_gbs,fraction_of_copy,"
       "speedup_vs_naive,copy_gbs,note\n";
  for (const auto& r : rs)
    f << '"' << r.shape << "\"," << r.precision << ',' << r.size << ",\"" << r.policy << "\"," << r.median_ms << ','
      << r.min_ms << ',' << r.max_ms << ',' << r.gcells << ',' << r.gbs << ',' << r.fraction << ',' << r.speedup
      << ',' << copy_gbs << ",\"" << r.note << "\"\n";
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

}  // namespace

int main(int argc, char** argv) {
  options opt;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--smoke") opt.smoke = true;
    else if (a == "--variants") opt.variants = true;
    else if (a == "--quick") opt.quick = true;
    else if (a == "--reps" && i + 1 < argc) opt.reps = std::max(1, std::atoi(argv[++i]));
    else if (a == "--csv" && i + 1 < argc) opt.csv = argv[++i];
    else if (a == "--json" && i + 1 < argc) opt.json = argv[++i];
    else if (a == "--help" || a == "-h") {
      std::puts("usage: tessera-bench [--reps N (20)] [--csv FILE] [--json FILE] [--variants] [--quick] [--smoke]");
      return 0;
    } else {
      std::fprintf(stderr, "tessera-bench: unknown argument '%s' (try --help)\n", a.c_str());
      return 2;
    }
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
    if (opt.quick) {
      const ts::extents<3> e{512, 512, 512};
      run_case<ts::star<3, 1>, float>(opt, e, copy_gbs, rs, agree);
      run_case<ts::box<3, 1>, float>(opt, e, copy_gbs, rs, agree);
    }
    auto cubes = [&](auto t) {
      using T = decltype(t);
      for (int n : opt.smoke ? std::vector<int>{19} : std::vector<int>{512, 256}) {
        const ts::extents<3> e{n, n, n};
        run_case<ts::star<3, 1>, T, true>(opt, e, copy_gbs, rs, agree);
        run_case<ts::star<3, 2>, T>(opt, e, copy_gbs, rs, agree);
        run_case<ts::star<3, 4>, T, true>(opt, e, copy_gbs, rs, agree);
        run_case<ts::box<3, 1>, T, true>(opt, e, copy_gbs, rs, agree);
      }
      for (int n : opt.smoke ? std::vector<int>{77} : std::vector<int>{8192, 4096}) {
        const ts::extents<2> e{n, n};
        run_case<ts::star<2, 1>, T>(opt, e, copy_gbs, rs, agree);
        run_case<ts::box<2, 1>, T>(opt, e, copy_gbs, rs, agree);
      }
    };
    if (!opt.quick) {
      cubes(float{});
      cubes(double{});
    }
    if (!opt.smoke) print(rs, copy_gbs);
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
