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
  std::optional<double> tol;  // poisson2d
  std::optional<int> max_iterations;  // poisson2d
  int order = 2;
  std::string precision = "double";
  std::string policy = "automatic";
  std::string boundary = "dirichlet";
  std::optional<double> dt;  // default: 0.9 x the stability limit
  std::string input, output, image;
  bool validate = false;
  std::string model = "layered";  // seismic3d: layered | homogeneous
  int snapshots = 0;              // seismic3d: snapshots written during the run
  std::string transport;          // distributed device runs: host-staged | cuda-aware-mpi | nccl
};

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
template <class T>
int run_poisson2d(const run_options& o);
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

/// `tessera validate`: prints one row per built-in shape in precision T swept by the
/// policy named `policy` (which must exist and be able to run here) and by Kokkos, on
/// awkward extents or `size` per axis; true when every row passed (validate_all.hpp).
template <class T>
bool validate_shapes(const std::string& policy, int size);

/// The default relative residual tolerance of poisson2d: 1e-10 (double) or 1e-5 (float),
/// raised to ten times the floor that rounding puts under the residual of an n x n grid,
/// 4 eps (n+1)^2 / (2 pi^2) relative to max|f|, so that a float solve can reach it.
double poisson_default_tolerance(bool single_precision, int n);
/// poisson2d's iteration cap when --max-iterations is not given.
inline constexpr int poisson_default_max_iterations = 1000000;
/// poisson2d calls a solve converged when max |u - exact| is at most this many times the
/// discretisation error (the distance of the discrete problem's own solution from u).
inline constexpr double poisson_accuracy_factor = 2.0;

}  // namespace tessera::app
