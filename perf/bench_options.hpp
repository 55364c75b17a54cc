#pragma once
// tessera-bench's command-line options (bench.cpp parses them; its sections read them).
#include <string>

#include "user_case.hpp"

namespace tessera::bench {

struct options {
  int reps = 20;
  bool smoke = false;
  bool variants = false;  // also time the tile and pipeline-depth variants (variants.hpp)
  bool host = true;       // the CPU section (host policies and Kokkos against a host copy)
  bool host_only = false;  // only the CPU section (runs without a GPU)
  bool solver = false;     // only the solver section (solver_bench.cu)
  int host_n = 256;        // cube edge of the CPU section
  bool iterate = false;   // only the iterate section
  bool fused = false;     // only the fused time-stepping section
  std::string fused_only;  // --fused-case: only the fused cases whose shape and size contain it
  bool periodic_faces = false;  // --faces periodic: the user's fused case with periodic faces (default Dirichlet)
  bool point_functions = false;  // only the point-function section (point_bench.cu)
  bool family = false;           // only the kernel-family section (family_bench.cu)
  user_case user;  // --shape/--size/--precision: only this case
  std::string only_policy;    // --policy: only this policy (and naive, the reference)
  bool quick = false;     // only the six cases the targets name (fp32 512^3 stars r1/2/4 and box r1, fp64 7-point, 2D 5-point 8192^2)
  std::string csv, json, tuning_table;
};

}  // namespace tessera::bench
