#pragma once
// tessera-bench's CPU section (host_bench.cpp): the 7-point sweep at n^3 on host::serial,
// host::parallel and kokkos::mdrange, and host::parallel's fused steps, against a parallel
// host copy loop timed beside each. Its own translation unit, compiled with the build's
// full optimisation: the copy loop and the fused steps' pass are instantiated here and
// timed, where bench.cpp only orchestrates (perf/CMakeLists.txt).
#include <vector>

#include "bench_result.hpp"

namespace tessera::bench {

struct host_section {
  std::vector<result> rows;
  double copy_gbs = 0;  // median of every copy timed in the section (read + write bytes)
};

/// Runs the section at n^3 with `reps` repetitions per policy (at least 3).
host_section run_host_section(int n, int reps);

}  // namespace tessera::bench
