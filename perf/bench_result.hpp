#pragma once
// One row of tessera-bench's tables (bench.cpp's GPU sections, host_bench.cpp's CPU
// section) and how its rates follow from the timings.
#include <algorithm>
#include <string>
#include <vector>

#include "median.hpp"

namespace tessera::bench {

struct result {
  std::string shape, precision, size, policy, note;
  std::string shape_class;
  int rank = 0, radius = 0;
  double median_ms = 0, min_ms = 0, max_ms = 0, gcells = 0, gbs = 0, fraction = 0, speedup = 0;
  double roofline_gbs = 0;  // the copy bandwidth `fraction` is of
  bool ran = false;
};

/// Fills r's times (median/min/max of t, ms) and the rates derived from the median:
/// points per second, ideal bytes per second and their fraction of the roofline.
inline void summarise(result& r, const std::vector<double>& t, double points, double ideal_bytes,
                      double roofline_gbs) {
  r.median_ms = median(t);
  r.min_ms = *std::min_element(t.begin(), t.end());
  r.max_ms = *std::max_element(t.begin(), t.end());
  r.gcells = points / (r.median_ms * 1e-3) * 1e-9;
  r.gbs = ideal_bytes / (r.median_ms * 1e-3) * 1e-9;
  r.fraction = r.gbs / roofline_gbs;
  r.roofline_gbs = roofline_gbs;
}

}  // namespace tessera::bench
