#pragma once
// `tessera validate [--policy NAME] [--size N]`: every built-in shape swept by the
// policy and by the Kokkos reference on random data of awkward size (or N per axis);
// one table row per shape. validate_shapes<T> is compiled once per precision
// (validate_float.cpp, validate_double.cpp).
#include <cstdio>
#include <functional>
#include <random>
#include <string>

#include <tessera/core/builtin_shapes.hpp>

#include "policy_names.hpp"
#include "problems.hpp"

namespace tessera::app {

struct validate_row {
  std::string shape, type, status;
  double err = 0;
  bool ok = false;
};

/// The extents of a rank-Rank validation grid: 37x29x53 (trailing axes for lower ranks),
/// primes that are multiples of no tile, or size on every axis when size > 0.
template <int Rank>
extents<Rank> validation_extents(int size) {
  extents<Rank> e;
  const index_t awkward[3] = {37, 29, 53};
  for (int d = 0; d < Rank; ++d) e[d] = size > 0 ? size : awkward[3 - Rank + d];
  return e;
}

/// One row: random data of the shape's rank, random coefficients, validated by
/// `check(stencil, input)` (the policy's validate). Not inlined, and independent of the
/// policy: one copy per shape serves every policy (inlined into one function per policy
/// it cost GCC a minute at -O3).
template <class S, class T, class Space>
[[gnu::noinline]] validate_row validate_shape(
    int size, const std::function<validation_report(const stencil<S, T>&, const View<T, S::rank, Space>&)>& check) {
  validate_row r;
  r.shape = shape_name<S>();
  r.type = sizeof(T) == 4 ? "float" : "double";
  constexpr int Rank = S::rank;
  View<T, Rank, HostSpace> h("in", validation_extents<Rank>(size), shape_traits<S>::radius);
  std::mt19937_64 gen(7);
  std::uniform_real_distribution<double> dist(-1, 1);
  for (index_t i = 0; i < h.layout().span(); ++i) h.data()[i] = T(dist(gen));
  stencil<S, T> st;
  for (auto& c : st.coeffs) c = T(dist(gen));
  try {
    View<T, Rank, Space> in("in", h.layout());
    deep_copy(in, h);
    const auto rep = check(st, in);
    r.err = rep.scaled_error;
    r.ok = rep.passed;
    r.status = rep.passed ? "pass" : "FAIL: " + rep.message;
  } catch (const unsupported_error& ex) {
    r.ok = true;  // a documented refusal, not a wrong answer
    const std::string m = ex.what();
    r.status = "n/a: " + m.substr(m.rfind(": ") + 2, 70) + "...";
  } catch (const allocation_error& ex) {
    r.status = std::string("could not allocate: ") + ex.what();
  }
  return r;
}

/// Prints one row per built-in shape in precision T for the policy named `name` (which
/// must exist and reach a device that is present); true when every row passed.
template <class T>
bool validate_shapes(const std::string& name, int size) {
  bool all = true;
  with_policy(name, [&](auto policy, auto tag) {
    using Space = typename decltype(tag)::type;
#define TESSERA_VALIDATE_ONE(T_, ...)                                                                       \
  {                                                                                                         \
    const auto row = validate_shape<__VA_ARGS__, T_, Space>(                                                \
        size, [&](const auto& st, const auto& in) { return tessera::validate(policy, st, in); });          \
    std::printf("%-12s %-7s %12.2e  %s\n", row.shape.c_str(), row.type.c_str(), row.err, row.status.c_str()); \
    all = all && row.ok;                                                                                    \
  }
    TESSERA_FOR_EACH_BUILTIN_SHAPE(TESSERA_VALIDATE_ONE, T)
#undef TESSERA_VALIDATE_ONE
  });
  return all;
}

}  // namespace tessera::app
