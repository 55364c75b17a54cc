// tessera-bench's point-function section: see point_bench.hpp.
#include "point_bench.hpp"
#include "hashed_fill.cuh"
#include "median.hpp"

#include <algorithm>
#include <cstdio>
#include <string>
#include <type_traits>
#include <vector>

#include <tessera/tessera.hpp>

namespace ts = tessera;
namespace cu = tessera::cuda;

namespace {

template <class T, int Rank>
ts::View<T, Rank, ts::CudaSpace> field(const std::string& label, const ts::extents<Rank>& e, int ghost, unsigned seed,
                                       T lo = 0) {
  ts::View<T, Rank, ts::CudaSpace> v(label, e, ghost);
  const auto n = v.layout().span();
  ts::bench::fill_hashed<T><<<1024, 256>>>(v.data(), n, seed, lo);
  cu::detail::check_launch("fill_hashed", "tessera-bench");
  return v;
}

/// "cuda:pipelined<32,8>": a variant's template arguments up to its last non-zero one.
template <template <int...> class Policy, int... Args>
std::string variant_name(Policy<Args...> p) {
  const int args[] = {Args...};
  int n = static_cast<int>(sizeof...(Args));
  while (n > 0 && args[n - 1] == 0) --n;
  std::string s = p.name();
  if (n == 0) return s;
  s += '<';
  for (int i = 0; i < n; ++i) s += (i ? "," : "") + std::to_string(args[i]);
  return s + '>';
}
std::string variant_name(cu::automatic) { return cu::automatic::name(); }

using tessera::bench::median;

/// Times fn over (in, out) on naive, streaming, vector_streaming, pipelined, shared_streaming,
/// the Variants and automatic; checks each against naive.
template <class... Variants, class F, class T, int Rank, std::size_t NI>
bool run_kernel(const std::string& kernel, const F& fn, const ts::input_fields<T, Rank, ts::CudaSpace, NI>& in,
                int reps, bool smoke, double copy_gbs, std::vector<ts::bench::point_row>& rows) {
  const auto& e = in[0].extents();
  ts::View<T, Rank, ts::CudaSpace> ref("naive_out", e, 0), out("out", e, 0);
  bool agree = true;
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  auto time_policy = [&](auto policy) {
    using P = decltype(policy);
    ts::bench::point_row r;
    r.kernel = kernel, r.precision = sizeof(T) == 4 ? "float" : "double", r.size = e.to_string();
    r.policy = variant_name(policy), r.fields = static_cast<int>(NI) + 1;
    try {
      ts::apply(policy, fn, in, std::is_same_v<P, cu::naive<>> ? ref : out);  // warm-up and correctness
    } catch (const ts::unsupported_error& e) {  // a variant whose plan does not fit this case
      r.note = std::string("n/a: ") + e.what();
      rows.push_back(r);
      return;
    }
    cu::synchronize();
    if (!std::is_same_v<P, cu::naive<>>) {
      const auto c = ts::compare(out, ref);
      if (!c.passed(ts::default_tolerance<T>())) {
        agree = false;
        r.note = "MISMATCH vs naive: rel " + std::to_string(c.max_rel_error);
      }
      r.note += (r.note.empty() ? "" : "; ") + std::string("ran ") + cu::last_launch().plan.strategy;
    }
    if (!smoke) {
      for (int k = 0; k < 3; ++k) ts::apply(policy, fn, in, out);  // untimed: the first policy timed ran slow (RESULTS run 13)
      std::vector<double> t;
      for (int k = 0; k < reps; ++k) {
        cudaEventRecord(a);
        ts::apply(policy, fn, in, out);
        cudaEventRecord(b);
        cudaEventSynchronize(b);
        float ms = 0;
        cudaEventElapsedTime(&ms, a, b);
        t.push_back(ms);
      }
      const double points = static_cast<double>(e.size());
      r.median_ms = median(t);
      r.min_ms = *std::min_element(t.begin(), t.end());
      r.max_ms = *std::max_element(t.begin(), t.end());
      r.gcells = points / (r.median_ms * 1e-3) * 1e-9;
      r.gbs = r.fields * points * sizeof(T) / (r.median_ms * 1e-3) * 1e-9;
      r.fraction = r.gbs / copy_gbs;
    }
    rows.push_back(r);
  };
  time_policy(cu::naive<>{});
  if constexpr (Rank >= 2) time_policy(cu::streaming<>{});
  if constexpr (Rank >= 2) time_policy(cu::vector_streaming<>{});
  if constexpr (Rank >= 2) time_policy(cu::pipelined<>{});
  if constexpr (Rank >= 2) time_policy(cu::shared_streaming<>{});
  (time_policy(Variants{}), ...);
  time_policy(cu::automatic{});
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  return agree;
}

// Tile and chunk variants of the point-function kernels, built where the option
// TESSERA_BENCH_POINT_VARIANTS is on (perf/CMakeLists.txt; off by default: CI compiles
// this file too).
#if defined(TESSERA_BENCH_POINT_VARIANTS)
#define TESSERA_POINT_VARIANTS_3D                                                                              \
  cu::naive<64, 4>, cu::naive<32, 16>, cu::naive<32, 8, 2>, cu::pipelined<64, 4>, cu::streaming<32, 8, 8>,   \
      cu::streaming<32, 8, 4>, cu::streaming<64, 4, 4>, cu::streaming<64, 4, 16>, cu::streaming<32, 16, 4>, \
      cu::streaming<64, 4, 8>, cu::streaming<32, 8, 16>, cu::vector_streaming<2>, cu::vector_streaming<8>,      \
      cu::vector_streaming<4, 4>, cu::vector_streaming<4, 16>, cu::shared_streaming<32, 8, 1>,                    \
      cu::shared_streaming<32, 4, 4>, cu::shared_streaming<64, 4, 2>, cu::shared_streaming<32, 8, 2, 8>,      \
      cu::coarsened<>, cu::tiled<>, cu::register_tiled<>, cu::pipelined<128, 2, 4, 2>, cu::pipelined<64, 4, 2, 2>, \
      cu::pipelined<32, 8, 2, 2>, cu::pipelined<128, 2, 2, 2>, cu::pipelined<32, 16, 1, 2>
#define TESSERA_POINT_VARIANTS_2D                                                                           \
  cu::naive<64, 4>, cu::naive<128, 8>, cu::pipelined<256, 0, 0, 8>, cu::streaming<128>, cu::streaming<512>, \
      cu::streaming<256, 0, 4>, cu::streaming<256, 0, 16>, cu::vector_streaming<4>, cu::vector_streaming<8>,    \
      cu::shared_streaming<256, 0, 1>, cu::shared_streaming<128, 0, 4>, cu::coarsened<>, cu::tiled<>,            \
      cu::pipelined<256, 0, 4, 2>, cu::pipelined<256, 0, 1, 4>
#else
#define TESSERA_POINT_VARIANTS_3D
#define TESSERA_POINT_VARIANTS_2D
#endif

template <class T>
bool run_3d(const ts::extents<3>& e, int reps, bool smoke, double copy_gbs, std::vector<ts::bench::point_row>& rows) {
  bool agree = true;
  {  // acoustic_step: u_prev (pointwise), u (8th-order Laplacian, 25 points), c^2 (pointwise)
    const auto up = field<T>("u_prev", e, 0, 1), u = field<T>("u", e, 4, 2), c2 = field<T>("c2", e, 0, 3);
    agree &= run_kernel<TESSERA_POINT_VARIANTS_3D>("acoustic_step", ts::physics::acoustic_step<T>{T(0.04)}, ts::inputs(up, u, c2), reps, smoke,
                        copy_gbs, rows);
  }
  {  // div_k_grad: u and k, each a 7-point star
    const auto u = field<T>("u", e, 1, 4), k = field<T>("k", e, 1, 5);
    agree &= run_kernel<TESSERA_POINT_VARIANTS_3D>("div_k_grad", ts::physics::div_k_grad<T>{T(1)}, ts::inputs(u, k), reps, smoke, copy_gbs, rows);
  }
  if constexpr (std::is_same_v<T, float>) {  // the 7-point stencil as a point function: each policy's point
    // mainloop beside the stencil kernel the GPU section times for the same shape (one kernel family's gap)
    ts::stencil<ts::star<3, 1>, T> st;
    for (int k = 0; k < st.size; ++k) st[k] = static_cast<T>(0.1 * (k + 1)) / st.size;
    const auto u = field<T>("u", e, 1, 9);
    agree &= run_kernel("star7_as_point_fn", ts::as_point_function(st), ts::inputs(u), reps, smoke, copy_gbs, rows);
  }
  return agree;
}

template <class T>
bool run_2d(const ts::extents<2>& e, int reps, bool smoke, double copy_gbs, std::vector<ts::bench::point_row>& rows) {
  const auto q = field<T>("q", e, 1, 6), vy = field<T>("vy", e, 0, 7, T(-0.5)), vx = field<T>("vx", e, 0, 8, T(-0.5));
  return run_kernel<TESSERA_POINT_VARIANTS_2D>("upwind_advection", ts::physics::upwind_advection<T>{T(0.3)}, ts::inputs(q, vy, vx), reps, smoke,
                    copy_gbs, rows);
}

}  // namespace

namespace tessera::bench {

bool run_point_functions(int reps, bool smoke, double copy_gbs, std::vector<point_row>& rows) {
  bool agree = true;
  if (smoke) {
    agree &= run_3d<float>(ts::extents<3>{19, 23, 37}, reps, true, copy_gbs, rows);
    agree &= run_3d<double>(ts::extents<3>{11, 40, 9}, reps, true, copy_gbs, rows);
    agree &= run_2d<float>(ts::extents<2>{37, 300}, reps, true, copy_gbs, rows);
    return agree;
  }
  agree &= run_3d<float>(ts::extents<3>{512, 512, 512}, reps, false, copy_gbs, rows);
  agree &= run_3d<float>(ts::extents<3>{256, 256, 256}, reps, false, copy_gbs, rows);
  agree &= run_3d<double>(ts::extents<3>{384, 384, 384}, reps, false, copy_gbs, rows);
  agree &= run_2d<float>(ts::extents<2>{8192, 8192}, reps, false, copy_gbs, rows);
  // small and medium grids (a multigrid's levels), where automatic's choice follows the size:
  // naive below 2^20 points, pipelined's claim from 2^24
  for (const int n : {64, 96, 128, 192}) agree &= run_3d<float>(ts::extents<3>{n, n, n}, reps, false, copy_gbs, rows);
  for (const int n : {64, 128}) agree &= run_3d<double>(ts::extents<3>{n, n, n}, reps, false, copy_gbs, rows);
  for (const int n : {512, 1024, 2048}) agree &= run_2d<float>(ts::extents<2>{n, n}, reps, false, copy_gbs, rows);
  return agree;
}

void print_point_rows(const std::vector<point_row>& rows, double copy_gbs) {
  std::printf("\npoint functions (ideal bytes: every field read once, the output written once; copy %.0f GB/s)\n",
              copy_gbs);
  std::printf("%-17s %-7s %-14s %-16s %6s %9s %9s %9s %9s %8s  %s\n", "kernel", "type", "size", "policy", "fields",
              "median ms", "min ms", "GCells/s", "GB/s", "of copy", "note");
  for (const auto& r : rows)
    std::printf("%-17s %-7s %-14s %-16s %6d %9.3f %9.3f %9.2f %9.1f %8.2f  %s\n", r.kernel.c_str(),
                r.precision.c_str(), r.size.c_str(), r.policy.c_str(), r.fields, r.median_ms, r.min_ms, r.gcells,
                r.gbs, r.fraction, r.note.c_str());
}

}  // namespace tessera::bench
