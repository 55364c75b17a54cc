#pragma once
// What every `tessera run` problem does with its result: write --output (.npy or .vti,
// with the grid's true spacing and origin) and --image, and report the validation
// against the Kokkos reference.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include <tessera/tessera.hpp>
#include <tessera/io/npy.hpp>
#include <tessera/io/png.hpp>
#include <tessera/io/vti.hpp>

#include "problems.hpp"

namespace tessera::app {

/// How the run's outputs treat a link, FIFO or device named as --output or --image.
inline io::special_output special_of(const run_options& o) {
  return o.write_through ? io::special_output::write_through : io::special_output::refuse;
}

/// Writes --output (.npy, else .vti with array `name` and `geometry`) and --image.
template <class T, int Rank>
void write_outputs(const run_options& o, const View<T, Rank, HostSpace>& u, const io::grid_geometry<Rank>& geometry,
                   const char* name) {
  if (!o.output.empty()) {
    if (o.output.ends_with(".npy")) io::write_npy(o.output, u, special_of(o));
    else io::write_vti(o.output, u, name, geometry, {}, special_of(o));
    std::printf("  wrote %s\n", o.output.c_str());
  }
  if (!o.image.empty()) {
    io::write_png(o.image, u, special_of(o));
    const auto& n = u.extents();
    std::printf("  wrote %s (%s%lldx%lld)\n", o.image.c_str(), Rank == 3 ? "middle z-slice, " : "",
                (long long)n[Rank - 1], (long long)n[Rank - 2]);
  }
}

/// 0 when every interior point of a run's result `u` is finite; else prints how many are
/// NaN or infinite and the first, and returns 1 (a diverged run never exits 0).
template <class T, int Rank>
int report_nonfinite(const View<T, Rank, HostSpace>& u) {
  const auto bad = find_nonfinite(u);
  if (bad.count == 0) return 0;
  std::printf("  FAILED: the result holds %lld NaN or infinite value(s) of %lld, the first at interior point %s "
              "(the run diverged, or started from non-finite values)\n",
              static_cast<long long>(bad.count), static_cast<long long>(u.size()), bad.first.c_str());
  return 1;
}

/// Prints the comparison of a run with its reference (`reference`, e.g. "kokkos:mdrange on
/// Serial"); 0 when it passes (no non-finite value and max |diff| <= tol * scale), else 1,
/// with the reason.
inline int report_validation(const comparison& c, double scale, double tol, const std::string& reference) {
  const double scaled = c.max_abs_error / std::max(scale, 1e-300);
  const bool finite = c.nonfinite == 0 && std::isfinite(scale);
  const bool ok = finite && scaled <= tol;
  std::printf("  validation vs %s: max |diff| %.3e (%.3e of max|u|, tolerance %.1e): %s", reference.c_str(),
              c.max_abs_error, scaled, tol, ok ? "pass" : "FAIL");
  if (c.nonfinite > 0)
    std::printf(" (%lld point(s) NaN or infinite in the run or the reference, the first at %s)",
                static_cast<long long>(c.nonfinite), c.worst_index_string().c_str());
  else if (!finite)
    std::printf(" (max|u| is not finite)");
  else if (!ok)
    std::printf(" (the largest difference, at %s, exceeds the tolerance)", c.worst_index_string().c_str());
  std::printf("\n");
  return ok ? 0 : 1;
}

/// The validation tolerance of a time-stepping run of `steps` steps, relative to max|u|:
/// rounding differences between two correct runs of a stable scheme grow at most about
/// linearly with the steps, so the tolerance grows with them, up to 100 times a single
/// sweep's (1e-3 in float, 1e-10 in double) and no further: a larger difference is
/// reported, never absorbed.
template <class T>
double stepping_tolerance(int steps) {
  return default_tolerance<T>() * std::clamp(steps, 1, 100);
}

/// Calls f(policy) with the path a run validates against and returns its name:
/// kokkos:mdrange (on the host), or host:serial where the run itself used kokkos:mdrange
/// (a path compared with itself checks nothing).
template <class F>
std::string with_reference(const std::string& policy, F&& f) {
  if (policy == kokkos::mdrange::name()) {
    f(host::serial{});
    return "host:serial (the run itself used kokkos:mdrange)";
  }
  f(kokkos::mdrange{});
  return "kokkos:mdrange on " + kokkos::execution_space_name();
}

inline boundary boundary_by_name(const std::string& b) {
  return b == "periodic" ? boundary::periodic() : b == "neumann" ? boundary::neumann() : boundary::dirichlet(0);
}

}  // namespace tessera::app
