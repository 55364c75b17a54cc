#pragma once
// `tessera validate [--policy NAME]`: every built-in shape, float and double, on random
// data of awkward size, swept by the policy and by the Kokkos reference; a table.
#include <cstdio>
#include <random>
#include <string>

#include <tessera/core/builtin_shapes.hpp>

#include "policy_names.hpp"

namespace tessera::app {

struct validate_row {
  std::string shape, type, status;
  double err = 0;
  bool ok = false;
};

template <class S, class T, class Policy, class Space>
validate_row validate_shape(const Policy& policy) {
  validate_row r;
  r.shape = shape_name<S>();
  r.type = sizeof(T) == 4 ? "float" : "double";
  constexpr int Rank = S::rank;
  extents<Rank> e;
  const index_t sizes[3] = {37, 29, 53};
  for (int d = 0; d < Rank; ++d) e[d] = sizes[3 - Rank + d];
  View<T, Rank, HostSpace> h("in", e, shape_traits<S>::radius);
  std::mt19937_64 gen(7);
  std::uniform_real_distribution<double> dist(-1, 1);
  for (index_t i = 0; i < h.layout().span(); ++i) h.data()[i] = T(dist(gen));
  stencil<S, T> st;
  for (auto& c : st.coeffs) c = T(dist(gen));
  try {
    View<T, Rank, Space> in("in", h.layout());
    deep_copy(in, h);
    const auto rep = tessera::validate(policy, st, in);
    r.err = rep.scaled_error;
    r.ok = rep.passed;
    r.status = rep.passed ? "pass" : "FAIL";
  } catch (const unsupported_error& ex) {
    r.ok = true;  // a documented refusal, not a wrong answer
    const std::string m = ex.what();
    r.status = "n/a: " + m.substr(m.rfind(": ") + 2, 70) + "...";
  }
  return r;
}

inline int validate_all(const std::string& policy_name) {
  bool all = true, found = false;
  found = with_policy(policy_name, [&](auto policy, auto tag) {
    using Space = typename decltype(tag)::type;
    std::printf("tessera validate: %s on %s against kokkos:mdrange (%s); random data, extents 53 / 29x53 / "
                "37x29x53\n\n%-12s %-7s %12s  %s\n",
                decltype(policy)::name().c_str(), Space::name, kokkos::execution_space_name().c_str(), "shape", "type",
                "error/scale", "result");
#define TESSERA_VALIDATE_ONE(T, ...)                                                               \
  {                                                                                              \
    const auto row = validate_shape<__VA_ARGS__, T, decltype(policy), Space>(policy);                     \
    std::printf("%-12s %-7s %12.2e  %s\n", row.shape.c_str(), row.type.c_str(), row.err, row.status.c_str()); \
    all = all && row.ok;                                                                         \
  }
    TESSERA_FOR_EACH_BUILTIN_SHAPE(TESSERA_VALIDATE_ONE, float)
    TESSERA_FOR_EACH_BUILTIN_SHAPE(TESSERA_VALIDATE_ONE, double)
#undef TESSERA_VALIDATE_ONE
  });
  if (!found) return 2;
  std::printf("\n%s\n", all ? "every shape agrees with the Kokkos reference" : "SOME SHAPES FAILED");
  return all ? 0 : 1;
}

}  // namespace tessera::app
