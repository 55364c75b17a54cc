// tessera-bench's CPU section (see host_bench.hpp).
#include "host_bench.hpp"

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <string>
#include <type_traits>
#include <vector>

#include <tessera/tessera.hpp>

namespace ts = tessera;

namespace tessera::bench {
namespace {

using host_clock = std::chrono::steady_clock;

/// A parallel copy loop over the bytes of one 3D field: the roofline of the host policies.
/// It is timed between the repetitions of each policy, and each policy's fraction is of
/// the copies timed beside it: on a shared 2-core VM the memory bandwidth moves within
/// seconds, and against one copy measured before all policies the same host::parallel
/// code read 0.56, 0.59 and 0.72 in three runs (perf/RESULTS.md run 7).
/// Its buffers are views (HostSpace's memory, huge pages where the views get them), so
/// the floor and the policies read and write the same kind of memory.
struct host_copy {
  ts::View<float, 1> a, b;
  std::vector<double> all_ms;  // every timed copy, for the section's summary line
  explicit host_copy(std::size_t elements)
      : a("copy_src", ts::extents<1>{static_cast<ts::index_t>(elements)}, 0),
        b("copy_dst", ts::extents<1>{static_cast<ts::index_t>(elements)}, 0) {
    std::fill(a.data(), a.data() + a.size(), 1.0f);
    run_ms();
  }
  double run_ms() {
    const auto t0 = host_clock::now();
    float* __restrict__ dst = b.data();
    const float* __restrict__ src = a.data();
    const long long n = static_cast<long long>(a.size());
#pragma omp parallel for schedule(static)
    for (long long i = 0; i < n; ++i) dst[i] = src[i];
    return std::chrono::duration<double, std::milli>(host_clock::now() - t0).count();
  }
  /// Read + write bytes per second of a copy that took ms.
  double gbs(double ms) const { return 2.0 * static_cast<double>(a.size()) * sizeof(float) / (ms * 1e-3) * 1e-9; }
};

/// 7-point fp32 and fp64 at n^3 on host::serial, host::parallel and kokkos::mdrange.
template <class T>
void run_host_case(int n, int reps_wanted, host_copy& copy, std::vector<result>& out) {
  using S = ts::star<3, 1>;
  const ts::extents<3> e{n, n, n};
  ts::View<T, 3> in("in", e, 1), o("out", in.layout()), ref("ref", in.layout());
  {
    T* p = in.data();
    for (ts::index_t i = 0; i < in.layout().span(); ++i) p[i] = static_cast<T>((i * 2654435761u % 1000) * 1e-3);
  }
  ts::stencil<S, T> st;
  for (int k = 0; k < st.size; ++k) st[k] = static_cast<T>(0.1 * (k + 1)) / st.size;
  ts::apply(ts::host::serial{}, st, in, ref);
  const double points = static_cast<double>(e.size()), ideal = 2.0 * points * sizeof(T);
  double serial_ms = 0;
  auto time_policy = [&](auto policy) {
    using P = decltype(policy);
    result r;
    r.shape = ts::shape_name<S>(), r.precision = sizeof(T) == 4 ? "float" : "double", r.size = e.to_string();
    r.policy = P::name(), r.shape_class = "star", r.rank = 3, r.radius = 1;
    ts::apply(policy, st, in, o);  // warm-up and correctness
    const auto c = ts::compare(o, ref);
    if (!c.passed(ts::default_tolerance<T>())) r.note = "MISMATCH vs host:serial";
    std::vector<double> t, copies;
    const int reps = std::max(3, reps_wanted / 2);
    for (int k = 0; k < reps; ++k) {
      copies.push_back(copy.run_ms());
      const auto t0 = host_clock::now();
      ts::apply(policy, st, in, o);
      t.push_back(std::chrono::duration<double, std::milli>(host_clock::now() - t0).count());
    }
    copy.all_ms.insert(copy.all_ms.end(), copies.begin(), copies.end());
    summarise(r, t, points, ideal, copy.gbs(median(copies)));
    if (std::is_same_v<P, ts::host::serial>) serial_ms = r.median_ms;
    r.speedup = serial_ms > 0 ? serial_ms / r.median_ms : 0;
    r.ran = true;
    out.push_back(r);
  };
  time_policy(ts::host::serial{});
  time_policy(ts::host::parallel{});
  time_policy(ts::kokkos::mdrange{});

  // Fused time steps: iterate on host::parallel with fuse = 4 and Dirichlet faces fuses 4
  // steps a pass (tessera/host/detail/fused_steps.hpp). Per step, so the
  // fraction is the multiple of the one-sweep floor (host copy GB/s / (2 sizeof T)); checked
  // against 8 steps of host::serial.
  {
    result r;
    r.shape = ts::shape_name<S>(), r.precision = sizeof(T) == 4 ? "float" : "double", r.size = e.to_string();
    r.policy = "fused:dirichlet host:parallel", r.shape_class = "star", r.rank = 3, r.radius = 1;
    const int steps = 20;
    ts::host::parallel fused;
    fused.fuse = 4;
    r.note = std::to_string(steps) + " steps, " + std::to_string(fused.fuse) + " per pass; x floor";
    ts::iterate_options<T, 3, ts::HostSpace> io;
    io.boundary = ts::boundary_conditions<3>::uniform(ts::boundary::dirichlet(0.5));
    ts::View<T, 3> a("a", in.layout()), b("b", in.layout()), ra("ref_a", in.layout()), rb("ref_b", in.layout());
    auto run = [&](auto policy, const ts::View<T, 3>& u, const ts::View<T, 3>& v, int n) {
      ts::deep_copy(u, in);
      ts::deep_copy(v, in);
      return ts::iterate(policy, st, u, v, n, io);
    };
    const auto c = ts::compare(run(fused, a, b, 8), run(ts::host::serial{}, ra, rb, 8));
    if (!c.passed(ts::default_tolerance<T>() * 10)) r.note = "MISMATCH vs host:serial";
    std::vector<double> t, copies;
    for (int k = 0; k < std::max(3, reps_wanted / 4); ++k) {
      copies.push_back(copy.run_ms());
      ts::deep_copy(a, in);
      ts::deep_copy(b, in);
      const auto t0 = host_clock::now();
      ts::iterate(fused, st, a, b, steps, io);
      t.push_back(std::chrono::duration<double, std::milli>(host_clock::now() - t0).count() / steps);
    }
    copy.all_ms.insert(copy.all_ms.end(), copies.begin(), copies.end());
    summarise(r, t, points, ideal, copy.gbs(median(copies)));
    r.ran = true;
    out.push_back(r);
  }
}

}  // namespace

host_section run_host_section(int n, int reps) {
  host_copy copy(std::size_t(n + 2) * (n + 2) * (n + 32));
  host_section s;
  run_host_case<float>(n, reps, copy, s.rows);
  run_host_case<double>(n, reps, copy, s.rows);
  s.copy_gbs = copy.gbs(median(copy.all_ms));
  return s;
}

}  // namespace tessera::bench
