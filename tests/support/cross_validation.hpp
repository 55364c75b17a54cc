#pragma once
// The cross-validation test body, written once and instantiated per policy, precision
// and shape: random input (ghosts included), random coefficients, NaN-poisoned output
// with ghost sentinels; the policy's result must match the Kokkos reference and
// host::serial, and every ghost sentinel must survive.
#include <cstdio>
#include <functional>
#include <string>

#include <doctest/doctest.h>

#include "test_support.hpp"

namespace tessera::test {

/// The memory space a test should put a policy's views in.
template <class Policy>
struct space_for {
#if TESSERA_ENABLE_CUDA
  using type = std::conditional_t<Policy::template reaches<HostSpace>, HostSpace, CudaSpace>;
#else
  using type = HostSpace;
#endif
};
template <class Policy>
using space_for_t = typename space_for<Policy>::type;

/// Runs a policy: sweep(stencil, in, out) on views of the policy's memory space.
template <class S, class T, class Space>
using policy_sweep =
    std::function<void(const stencil<S, T>&, const View<T, S::rank, Space>&, const View<T, S::rank, Space>&)>;

/// The body of one matrix entry, independent of the policy (which `sweep` runs), so one
/// copy per shape, precision and space serves every policy: the whole check inlined into
/// every test case cost about a second of compile time per case. The output starts
/// poisoned (interior NaN, ghosts = sentinels).
template <class T, class S, class Space>
[[gnu::noinline]] void check_against_kokkos(const std::string& policy, const extents<S::rank>& e, std::uint64_t seed,
                                            double tol, const policy_sweep<S, T, Space>& sweep) {
  constexpr int Rank = S::rank;
  const int g = shape_traits<S>::radius;
  View<T, Rank, HostSpace> in_h("in", e, g);
  fill_random(in_h, seed);
  const auto st = random_stencil<S, T>(seed + 1);

  View<T, Rank, HostSpace> ref("kokkos_ref", in_h.layout()), serial_out("serial", in_h.layout());
  poison(ref);
  poison(serial_out);
  apply(kokkos::mdrange{}, st, in_h, ref);
  apply(host::serial{}, st, in_h, serial_out);

  View<T, Rank, HostSpace> out("out", in_h.layout());
  poison(out);
  {
    View<T, Rank, Space> in_s("in_" + std::string(Space::name), in_h.layout());
    View<T, Rank, Space> out_s("out_" + std::string(Space::name), in_h.layout());
    deep_copy(in_s, in_h);
    deep_copy(out_s, out);
    sweep(st, in_s, out_s);
    deep_copy(out, out_s);
  }
  const auto vs_kokkos = compare(out, ref);
  const auto vs_serial = compare(out, serial_out);
  // Differences are measured against the sweep's rounding scale S = sum|c| * max|in|
  // (sweep_scale.hpp): two correct sweeps differ by a few eps * S wherever the stencil
  // cancels, e.g. the single point of a 1-point grid. Host policies (same summation
  // order, no FMA) must also meet the plain normwise relative tolerance: against
  // host::serial always, against Kokkos where it runs on the host too (on a GPU, FMA
  // contraction moves its last bits).
  const double scale = sweep_scale(st, in_h);
  INFO(policy, " ", shape_name<S>(), " extents ", e.to_string(), ": max abs error vs Kokkos ", vs_kokkos.max_abs_error,
       " (scale ", scale, ", normwise rel ", vs_kokkos.max_rel_error, ") at ", vs_kokkos.worst_index_string(),
       ", non-finite ", vs_kokkos.nonfinite);
  CHECK(vs_kokkos.points == e.size());
  CHECK(vs_kokkos.nonfinite == 0);
  CHECK(vs_kokkos.max_abs_error <= tol * scale);
  CHECK(vs_serial.nonfinite == 0);
  CHECK(vs_serial.max_abs_error <= tol * scale);
  if constexpr (Space::host_accessible) {
    if constexpr (kokkos::reference_runs_on_host()) CHECK(vs_kokkos.max_rel_error <= tol);
    CHECK(vs_serial.max_rel_error <= tol);
  }
  CHECK(ghosts_changed(out) == 0);
  CHECK(ghosts_changed(ref) == 0);
}

/// The full matrix entry: awkward extents, then a single interior point, then a grid
/// thinner than the shape's reach on every axis.
template <class Policy, class T, class S>
void cross_validate(double tol) {
  constexpr int Rank = S::rank;
  using Space = space_for_t<Policy>;
  const policy_sweep<S, T, Space> sweep = [](const stencil<S, T>& st, const View<T, Rank, Space>& in,
                                             const View<T, Rank, Space>& out) { apply(Policy{}, st, in, out); };
  SUBCASE("awkward extents") { check_against_kokkos<T, S, Space>(Policy::name(), awkward_extents<Rank>(), 11, tol, sweep); }
  SUBCASE("1-point interior") {
    extents<Rank> one;
    for (int d = 0; d < Rank; ++d) one[d] = 1;
    check_against_kokkos<T, S, Space>(Policy::name(), one, 23, tol, sweep);
  }
  SUBCASE("tiny uneven interior") {
    extents<Rank> tiny;
    for (int d = 0; d < Rank; ++d) tiny[d] = 2 + d;
    check_against_kokkos<T, S, Space>(Policy::name(), tiny, 37, tol, sweep);
  }
}

}  // namespace tessera::test

#define TESSERA_STR_(...) #__VA_ARGS__
#define TESSERA_STR(...) TESSERA_STR_(__VA_ARGS__)
