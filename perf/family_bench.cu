// tessera-bench's kernel-family section: see family_bench.hpp.
#include "family_bench.hpp"
#include "gpu_events.hpp"
#include "hashed_fill.cuh"
#include "l2_rotation.hpp"
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

/// Every byte of v 0xFF (a NaN in either precision): a point a sweep missed fails the check.
template <class T, int Rank>
void poison(const ts::View<T, Rank, ts::CudaSpace>& v) {
  cudaMemset(v.data(), 0xFF, v.allocation_bytes());
}

template <class S, class T, int Rank = S::rank>
bool run_case(const ts::extents<Rank>& e, int reps, bool smoke, std::vector<ts::bench::family_row>& rows) {
  constexpr int ghost = ts::shape_traits<S>::radius;
  // inputs rotated over enough buffers that a sweep does not find its input in L2
  std::vector<ts::View<T, Rank, ts::CudaSpace>> ins;
  ins.emplace_back("u0", e, ghost);
  const int nbuf = smoke ? 1 : ts::bench::buffers_beyond_l2(ins[0].allocation_bytes());
  for (int b = 1; b < nbuf; ++b) ins.emplace_back("u" + std::to_string(b), e, ghost);
  for (int b = 0; b < nbuf; ++b) {
    ts::bench::fill_hashed<T><<<1024, 256>>>(ins[b].data(), ins[b].layout().span(), 17u + static_cast<unsigned>(b), T(0));
    cu::detail::check_launch("fill_hashed", "tessera-bench --family");
  }
  ts::View<T, Rank, ts::CudaSpace> ref("naive_out", e, 0), out("out", e, 0);
  ts::stencil<S, T> st;
  for (int k = 0; k < st.size; ++k) st[k] = static_cast<T>(0.1 * (k + 1)) / st.size;
  const auto fn = ts::as_point_function(st);
  ts::apply(cu::naive<>{}, st, ins[0], ref);
  cu::synchronize();
  bool agree = true;
  ts::bench::events ev;

  auto time_policy = [&](auto policy) {
    using P = decltype(policy);
    ts::bench::family_row r;
    r.shape = ts::shape_name<S>(), r.precision = sizeof(T) == 4 ? "float" : "double", r.size = e.to_string();
    r.policy = P::name();
    auto check = [&](const char* what) {  // out against naive's stencil kernel
      cu::synchronize();
      const auto c = ts::compare(out, ref);
      if (!c.passed(ts::default_tolerance<T>())) {
        agree = false;
        r.note += std::string(r.note.empty() ? "" : "; ") + "MISMATCH (" + what + ") vs naive: rel " +
                  std::to_string(c.max_rel_error);
      }
    };
    try {
      poison(out);
      ts::apply(policy, st, ins[0], out);
      r.stencil_plan = cu::last_launch().plan.describe();
      check("stencil kernel");
      poison(out);
      ts::apply(policy, fn, ts::inputs(ins[0]), out);
      r.point_plan = cu::last_launch().plan.describe();
      check("point mainloop");
    } catch (const ts::unsupported_error& x) {
      r.note = std::string("n/a: ") + x.what();
      rows.push_back(r);
      return;
    }
    if (!smoke) {
      for (int k = 0; k < 3; ++k) {
        ts::apply(policy, st, ins[k % nbuf], out);
        ts::apply(policy, fn, ts::inputs(ins[k % nbuf]), out);
      }
      std::vector<double> ts_, tp;
      for (int k = 0; k < reps; ++k) {  // alternately, so that drift hits both alike
        ts_.push_back(ev.time_ms([&] { ts::apply(policy, st, ins[k % nbuf], out); }));
        tp.push_back(ev.time_ms([&] { ts::apply(policy, fn, ts::inputs(ins[(k + 1) % nbuf]), out); }));
      }
      const double points = static_cast<double>(e.size());
      r.stencil_ms = ts::bench::median(ts_), r.point_ms = ts::bench::median(tp);
      r.stencil_gcells = points / (r.stencil_ms * 1e-3) * 1e-9;
      r.point_gcells = points / (r.point_ms * 1e-3) * 1e-9;
    }
    rows.push_back(r);
  };
  ts::for_each_type(cu::strategies{}, [&](auto policy) { time_policy(policy); });
  time_policy(cu::automatic{});
  return agree;
}

}  // namespace

namespace tessera::bench {

bool run_family(int reps, bool smoke, std::vector<family_row>& rows) {
  bool agree = true;
  if (smoke) {  // sizes that are multiples of no tile
    agree &= run_case<ts::star<3, 1>, float>(ts::extents<3>{19, 23, 37}, reps, true, rows);
    agree &= run_case<ts::box<3, 1>, double>(ts::extents<3>{11, 40, 9}, reps, true, rows);
    agree &= run_case<ts::star<2, 1>, float>(ts::extents<2>{37, 300}, reps, true, rows);
    return agree;
  }
  agree &= run_case<ts::star<3, 1>, float>(ts::extents<3>{512, 512, 512}, reps, false, rows);
  agree &= run_case<ts::star<3, 1>, float>(ts::extents<3>{256, 256, 256}, reps, false, rows);
  agree &= run_case<ts::star<3, 1>, double>(ts::extents<3>{384, 384, 384}, reps, false, rows);
  agree &= run_case<ts::box<3, 1>, float>(ts::extents<3>{512, 512, 512}, reps, false, rows);
  agree &= run_case<ts::star<3, 2>, float>(ts::extents<3>{512, 512, 512}, reps, false, rows);
  agree &= run_case<ts::star<2, 1>, float>(ts::extents<2>{8192, 8192}, reps, false, rows);
  return agree;
}

void print_family_rows(const std::vector<family_row>& rows) {
  std::printf("\nkernel family: each strategy's stencil kernel against its point mainloop running the same stencil\n"
              "(as_point_function), timed alternately; ratio = stencil ms / point ms (above 1: the mainloop is faster)\n");
  std::printf("%-10s %-7s %-14s %-22s %10s %10s %7s  %s\n", "shape", "type", "size", "policy", "stencil G/s",
              "point G/s", "ratio", "plans (stencil | point); note");
  for (const auto& r : rows)
    std::printf("%-10s %-7s %-14s %-22s %10.2f %10.2f %7.3f  %s | %s%s%s\n", r.shape.c_str(), r.precision.c_str(),
                r.size.c_str(), r.policy.c_str(), r.stencil_gcells, r.point_gcells, r.ratio(), r.stencil_plan.c_str(),
                r.point_plan.c_str(), r.note.empty() ? "" : "; ", r.note.c_str());
}

}  // namespace tessera::bench
