#pragma once
// validate(policy, stencil, in): runs the sweep with `policy` and with the Kokkos
// reference on the same input and compares the two results. The verdict measures the
// largest difference against the sweep's rounding scale S = sum |c_k| * max |in|
// (sweep_scale.hpp explains why a plain relative error is the wrong yardstick where a
// stencil cancels); the plain measures are in `result` too.
#include <string>

#include "tessera/algorithms/apply.hpp"
#include "tessera/algorithms/compare.hpp"
#include "tessera/algorithms/sweep_scale.hpp"
#include "tessera/kokkos/mdrange.hpp"

namespace tessera {

struct validation_report {
  std::string policy;
  std::string shape;
  std::string reference;   // "kokkos:mdrange on <execution space>"
  double tolerance = 0;    // allowed scaled_error
  double scale = 0;        // S = sum |c_k| * max |in|
  double scaled_error = 0; // result.max_abs_error / S
  comparison result;       // policy's output vs the reference
  bool passed = false;     // no non-finite value and scaled_error <= tolerance
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
  r.scale = sweep_scale(st, in);
  r.scaled_error = r.scale > 0 ? r.result.max_abs_error / r.scale : r.result.max_abs_error;
  r.passed = r.result.nonfinite == 0 && r.scaled_error <= tolerance;
  return r;
}

}  // namespace tessera
