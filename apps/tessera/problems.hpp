#pragma once
// `tessera run` and `tessera validate`: the options of a run and the entry points. Each problem is
// compiled in translation units of its own, one per precision (run_heat_float.cpp, ...),
// so the command builds on several cores and every policy x order x precision is
// instantiated once.
#include <cmath>
#include <optional>
#include <string>

#include <tessera/core/config.hpp>

namespace tessera::app {

struct run_options {
  std::string problem = "heat3d";
  int size = 64;
  int steps = 100;
  bool steps_given = false;
  std::optional<double> tol;  // poisson2d/3d
  std::optional<int> max_iterations;  // poisson2d/3d: cg and jacobi
  std::string solver = "multigrid";   // poisson2d/3d: multigrid | cg | jacobi
  std::optional<int> max_cycles;      // poisson2d/3d: multigrid
  std::string cycle = "V";            // multigrid (and cg's preconditioner): V | W | F
  std::string smoother = "rbgs";      // rbgs | jacobi | chebyshev
  bool fmg = false;                   // multigrid: one full-multigrid pass first
  int order = 2;
  std::string precision = "double";
  std::string policy = "automatic";
  std::string boundary = "dirichlet";
  std::optional<double> dt;  // default: 0.9 x the stability limit
  std::string input, output, image;
  bool validate = false;
  bool write_through = false;     // --output/--image may be a link, FIFO or device, written in place
  std::string model = "layered";  // seismic3d: layered | homogeneous
  int snapshots = 0;              // seismic3d: snapshots written during the run
  std::optional<double> frequency;  // seismic3d: the Ricker peak frequency (default: seismic_default_frequency)
  std::string transport;          // distributed device runs: host-staged | cuda-aware-mpi | nccl
};

/// Calls run.template operator()<Order>() with heat3d's order of accuracy (2, 4, 6, else 8:
/// the option parser admits only these), so each order is a compile-time stencil.
template <class Run>
int with_heat_order(int order, Run&& run) {
  switch (order) {
    case 2: return run.template operator()<2>();
    case 4: return run.template operator()<4>();
    case 6: return run.template operator()<6>();
    default: return run.template operator()<8>();
  }
}

/// seismic3d's sponge: max(4, N / 10) points on every face.
inline int seismic_sponge_points(int n) { return n / 10 > 4 ? n / 10 : 4; }

/// The radii, in points from the source (at N / 2 on every axis), that seismic3d's analytic
/// check reads along each axis: from 3 (nearer, the discrete point source is no point) to
/// the last point but one outside the sponge on the shorter side (the last one feels the
/// sponge through the 8th-order stencil: up to 0.101 of the peak on 25^3-28^3 grids where
/// the others stayed within 0.063). Empty (first > last) on grids too small for it.
struct radius_window {
  int first = 3, last = 0;
  int points() const { return last >= first ? last - first + 1 : 0; }
};
inline radius_window seismic_analytic_window(int n) {
  const int src = n / 2, shorter = src < n - 1 - src ? src : n - 1 - src;
  return {3, shorter - seismic_sponge_points(n) - 1};
}
/// The analytic check wants at least this many radii on each axis.
inline constexpr int seismic_analytic_min_points = 2;

/// seismic3d's default Ricker peak frequency for wave speed c_min on N points a side:
/// 12 points per wavelength up to N = 64, then fixed (c_min * 64 / 12), so that larger
/// grids resolve the same wavelet better instead of carrying ever more wavelengths, whose
/// accumulated dispersion grew the analytic error with N (0.028 at 48, 0.103 at 192).
inline double seismic_default_frequency(double c_min, int n) { return c_min * (n < 64 ? n : 64) / 12.0; }
/// The fewest points per wavelength seismic3d runs with (--frequency above that is refused).
inline constexpr double seismic_min_points_per_wavelength = 8;

/// Whether a run of `steps` steps writing `snapshots` evenly spaced snapshots owes one after
/// step `done` (1-based), `written` being written so far. In 64 bits: done * snapshots
/// passed INT_MAX after step 214,748 of a 10,000-snapshot run, and snapshots stopped.
constexpr bool snapshot_due(long long done, int snapshots, int steps, int written) {
  return snapshots > 0 && steps > 0 && done * snapshots / steps > written;
}

/// heat3d's initial field: a hot off-centre Gaussian, at interior point (z, y, x) of the
/// unit cube with spacing h (point i at (i + 1) h). One definition for the single-process
/// and the distributed run, so that --validate compares the same problem.
inline double heat3d_initial(index_t z, index_t y, index_t x, double h) {
  const double px = (x + 1) * h - 0.4, py = (y + 1) * h - 0.55, pz = (z + 1) * h - 0.5;
  return std::exp(-(px * px + py * py + pz * pz) / 0.01);
}

/// Each returns the process exit code: 0 ok, 1 a failed run or validation. Defined for
/// float and double.
template <class T>
int run_heat3d(const run_options& o);
/// poisson2d (Rank 2) and poisson3d (Rank 3), run_poisson.hpp.
template <class T, int Rank>
int run_poisson(const run_options& o);
template <class T>
int run_wave2d(const run_options& o);
template <class T>
int run_seismic3d(const run_options& o);

/// Under mpirun (TESSERA_ENABLE_MPI builds): true when the launcher started more than one
/// process; run_distributed then runs the problem over them (run_heat_mpi.cpp).
bool launched_by_mpirun();
int run_distributed(const run_options& o);
/// seismic3d over the processes (run_seismic_mpi.cpp), host policies.
int run_seismic3d_mpi(const run_options& o);
/// heat3d under mpirun in precision T (run_heat_mpi.hpp; instantiated for float and double).
template <class T>
int run_heat3d_mpi(const run_options& o);
int run_poisson3d_mpi(const run_options& o);

/// `tessera validate`: prints one row per built-in shape in precision T swept by the
/// policy named `policy` (which must exist and be able to run here) and by Kokkos, on
/// awkward extents or `size` per axis; true when every row passed (validate_all.hpp).
template <class T>
bool validate_shapes(const std::string& policy, int size);

/// The default relative residual tolerance of --solver jacobi: 1e-10 (double) or 1e-5 (float),
/// raised to ten times the floor that rounding puts under the residual of an n x n grid,
/// 4 eps (n+1)^2 / (2 pi^2) relative to max|f|, so that a float solve can reach it.
/// (multigrid and cg take 1e-10 and stop at the precision's floor, saying so.)
double poisson_default_tolerance(bool single_precision, int n);
/// --solver jacobi's iteration cap when --max-iterations is not given.
inline constexpr int poisson_default_max_iterations = 1000000;
/// --solver cg's iteration cap, and multigrid's cycle cap, when not given.
inline constexpr int poisson_default_cg_iterations = 200;
inline constexpr int poisson_default_max_cycles = 50;
/// poisson2d/3d call a solve converged when max |u - exact| is at most this many times the
/// discretisation error (the distance of the discrete problem's own solution from u).
inline constexpr double poisson_accuracy_factor = 2.0;

}  // namespace tessera::app
