#pragma once
// What every `tessera run` problem does with its result: write --output (.npy or .vti,
// with the grid's true spacing and origin) and --image, and report the validation
// against the Kokkos reference.
#include <algorithm>
#include <cstdio>
#include <string>

#include <tessera/tessera.hpp>
#include <tessera/io/npy.hpp>
#include <tessera/io/png.hpp>
#include <tessera/io/vti.hpp>

#include "problems.hpp"

namespace tessera::app {

/// Writes --output (.npy, else .vti with array `name` and `geometry`) and --image.
template <class T, int Rank>
void write_outputs(const run_options& o, const View<T, Rank, HostSpace>& u, const io::grid_geometry<Rank>& geometry,
                   const char* name) {
  if (!o.output.empty()) {
    if (o.output.ends_with(".npy")) io::write_npy(o.output, u);
    else io::write_vti(o.output, u, name, geometry);
    std::printf("  wrote %s\n", o.output.c_str());
  }
  if (!o.image.empty()) {
    io::write_png(o.image, u);
    const auto& n = u.extents();
    std::printf("  wrote %s (%s%lldx%lld)\n", o.image.c_str(), Rank == 3 ? "middle z-slice, " : "",
                (long long)n[Rank - 1], (long long)n[Rank - 2]);
  }
}

/// Prints the comparison of a run with the Kokkos reference; 0 when it passes (no
/// non-finite value and max |diff| <= tol * scale), else 1.
inline int report_validation(const comparison& c, double scale, double tol) {
  const double scaled = c.max_abs_error / std::max(scale, 1e-300);
  const bool ok = c.nonfinite == 0 && scaled <= tol;
  std::printf("  validation vs kokkos:mdrange on %s: max |diff| %.3e (%.3e of max|u|, tolerance %.1e): %s\n",
              kokkos::execution_space_name().c_str(), c.max_abs_error, scaled, tol, ok ? "pass" : "FAIL");
  return ok ? 0 : 1;
}

inline boundary boundary_by_name(const std::string& b) {
  return b == "periodic" ? boundary::periodic() : b == "neumann" ? boundary::neumann() : boundary::dirichlet(0);
}

}  // namespace tessera::app
