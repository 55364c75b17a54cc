#pragma once
// validate(policy, stencil, in): runs the sweep with `policy` and with the Kokkos
// reference on the same input and compares the two results. The verdict measures the
// largest difference against the sweep's rounding scale S = sum |c_k| * max |in|
// (sweep_scale.hpp explains why a plain relative error is the wrong yardstick where a
// stencil cancels); the plain measures are in `result` too.
#include <cmath>
#include <functional>
#include <string>

#include "tessera/algorithms/apply.hpp"
#include "tessera/algorithms/compare.hpp"
#include "tessera/algorithms/detail/sweep_scale.hpp"
#include "tessera/core/detail/format.hpp"
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
  std::string message;     // why it failed ("" when it passed)
};

namespace detail {
/// Everything validate does that does not depend on the policy under test: the checks,
/// the reference sweep, the comparison and the verdict. `sweep(out)` runs the policy.
/// Not inlined: one copy per shape, type and space serves every policy of a program
/// (inlined into each validate call it cost about 0.2 s of compile time per call).
template <class S, class T, int Rank, class Space>
[[gnu::noinline]] validation_report validate_with(const std::string& policy, const stencil<S, T>& st,
                                                  const View<T, Rank, Space>& in, double tolerance,
                                                  const std::function<void(const View<T, Rank, Space>&)>& sweep) {
  validation_report r;
  r.policy = policy;
  r.shape = shape_name<S>();
  r.reference = "kokkos:mdrange on " + kokkos::execution_space_name();
  r.tolerance = tolerance;
  const std::string who = "tessera::validate(" + r.policy + ", " + r.shape + ")";
  require_allocated(in, who, "input");
  if (!(tolerance >= 0)) throw invalid_argument_error(who + ": tolerance " + sci(tolerance) + " must be a number >= 0");
  for (int k = 0; k < st.size; ++k)
    if (!std::isfinite(static_cast<double>(st.coeffs[k]))) {
      r.message = who + ": coefficient " + std::to_string(k) + " of the stencil is " +
                  sci(static_cast<double>(st.coeffs[k])) + "; validation needs finite coefficients";
      return r;
    }
  r.scale = sweep_scale(st, in);
  if (!std::isfinite(r.scale)) {
    r.message = who + ": input " + in.describe() +
                " holds NaN or infinite values (ghosts included); validation needs finite input";
    return r;
  }
  View<T, Rank, Space> out(in.label() + "_validate_out", in.layout());
  View<T, Rank, Space> ref(in.label() + "_validate_ref", in.layout());
  sweep(out);
  apply(kokkos::mdrange{}, st, in, ref);
  r.result = compare(out, ref);
  r.scaled_error = r.scale > 0 ? r.result.max_abs_error / r.scale : r.result.max_abs_error;
  r.passed = r.result.nonfinite == 0 && r.scaled_error <= tolerance;
  if (r.result.nonfinite > 0)
    r.message = who + ": " + std::to_string(r.result.nonfinite) + " output value(s) are NaN or infinite (first at " +
                r.result.worst_index_string() + ")";
  else if (!r.passed)
    r.message = who + ": max |difference| " + sci(r.result.max_abs_error) + " at " + r.result.worst_index_string() +
                " is " + sci(r.scaled_error) + " of the scale S, above the tolerance " + sci(tolerance);
  return r;
}
}  // namespace detail

/// Sweeps `in` with `policy` and with the Kokkos reference and compares. A NaN or
/// infinite coefficient or input value fails the validation without sweeping (a
/// non-finite scale would make every error look small), with a message saying which.
template <execution_policy Policy, class S, class T, int Rank, class Space>
validation_report validate(const Policy& policy, const stencil<S, T>& st, const View<T, Rank, Space>& in,
                           double tolerance = default_tolerance<T>()) {
  return detail::validate_with<S, T, Rank, Space>(Policy::name(), st, in, tolerance,
                                                  [&](const View<T, Rank, Space>& out) { apply(policy, st, in, out); });
}

}  // namespace tessera
