#pragma once
// validate(policy, stencil, in): runs the sweep with `policy` and with the Kokkos
// reference on the same input, and compares the two results.
#include <string>

#include "tessera/algorithms/apply.hpp"
#include "tessera/algorithms/compare.hpp"
#include "tessera/kokkos/mdrange.hpp"

namespace tessera {

struct validation_report {
  std::string policy;
  std::string shape;
  std::string reference;  // "kokkos:mdrange on <execution space>"
  double tolerance = 0;
  comparison result;
  bool passed = false;
};

template <execution_policy Policy, class S, class T, int Rank, class Space>
validation_report validate(const Policy& policy, const stencil<S, T>& st,
                           const View<T, Rank, Space>& in,
                           double tolerance = default_tolerance<T>()) {
  View<T, Rank, Space> out(in.label() + "_validate_out", in.layout());
  View<T, Rank, Space> ref(in.label() + "_validate_ref", in.layout());
  apply(policy, st, in, out);
  apply(kokkos::mdrange{}, st, in, ref);
  validation_report r;
  r.policy = Policy::name();
  r.shape = shape_name<S>();
  r.reference = "kokkos:mdrange on " + kokkos::execution_space_name();
  r.tolerance = tolerance;
  r.result = compare(out, ref);
  r.passed = r.result.passed(tolerance);
  return r;
}

}  // namespace tessera
