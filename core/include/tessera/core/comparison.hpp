#pragma once
// The result of comparing two fields (see tessera::compare): a plain value type that
// host and device comparison paths both fill.
#include <string>

#include "tessera/core/array.hpp"
#include "tessera/core/config.hpp"

namespace tessera {

struct comparison {
  int rank = 0;
  index_t points = 0;
  double max_abs_error = 0;   // max |a - b|
  double max_rel_error = 0;   // max |a - b| / max |b|
  double rel_l2_error = 0;    // ||a - b||_2 / ||b||_2
  array<index_t, 3> worst_index{};  // max |a - b|, or the first non-finite point
  index_t nonfinite = 0;      // points where a or b is NaN or infinite

  /// No non-finite value and max_rel_error <= rel_tol.
  bool passed(double rel_tol) const { return nonfinite == 0 && max_rel_error <= rel_tol; }

  std::string worst_index_string() const {
    std::string s = "(";
    for (int d = 0; d < rank; ++d) {
      if (d) s += ", ";
      s += std::to_string(worst_index[d]);
    }
    return s + ")";
  }
};

}  // namespace tessera
