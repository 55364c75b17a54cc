#pragma once
// The statistic the tessera benchmarks report for repeated timings: the median (robust to
// the one slow run a shared machine throws in). Shared by tessera-bench (bench.cpp,
// point_bench.cu) and tessera-mpi-bench.
#include <algorithm>
#include <vector>

namespace tessera::bench {

/// The median of v (the upper middle value for an even count); 0 when v is empty.
inline double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace tessera::bench
