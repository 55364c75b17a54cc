#pragma once
// `tessera run --problem seismic3d`: acoustic waves from a point source through a velocity
// model, the variable-coefficient point function of tessera (core/point_function.hpp).
//
//   u_tt + sigma u_t = c(x)^2 Laplacian(u) + s(t) delta(x - x_s)
//
// - Unit cube, N^3 points at cell centres (i + 1/2) h, h = 1 / N; 8th-order Laplacian
//   (25 points), leapfrog in time, dt = 0.9 x the stability limit 2 h / (c_max sqrt(3 * 6.501)).
// - --model layered (default): c = 1 above z = 0.55 and 2 below, joined smoothly over
//   ~0.03; --model homogeneous: c = 1 everywhere.
// - s(t): a Ricker wavelet of peak frequency f0 (--frequency; by default c_min N / 12, 12
//   points per wavelength, up to N = 64 and c_min 64 / 12 beyond: seismic_default_frequency),
//   delayed by t0 = 1.2 / f0; injected at the grid point nearest (0.5, 0.5, 0.5) as
//   dt^2 s(t) / h^3.
// - Absorbing sponge: sigma rises as the square of the depth into a layer of
//   max(4, N / 10) points on every face, to 3 c_max ln(1000) / (2 w h) (a thousandfold
//   amplitude loss across the layer and back), so waves leave without reflecting.
// - One step is one point-function sweep over five fields (u_prev, u, c^2, the sponge's
//   sigma dt / 2, the source mask) into u_next: variable coefficients and the source
//   inside the sweep, no separate passes.
// - --validate: the run is repeated with kokkos:mdrange on the host and compared; with
//   --model homogeneous the field is also checked against the analytic solution
//   u(r, t) = s(t - r / c) / (4 pi c^2 r): along the four in-plane axis directions from
//   the source, for 3h <= r <= the last point but one before the sponge
//   (seismic_analytic_window; grids with fewer than 2 such radii, below 19^3, are refused),
//   r u must match s(t - r / c) / (4 pi c^2) to 10% of its peak, and the wavefront's radius
//   c (t - t0) within 1.5 h. --steps defaults to the front at 0.25, nearer where that
//   window ends nearer or the wavelet would reach the sponge (seismic_steps).
// - --output (.vti or .npy) and --image (a PNG of the x-z section through the source)
//   get the final field; --snapshots K also writes K evenly spaced ones during the run,
//   numbered after those names (wave_0001.png, wave_0001.vti; .vti for a .npy --output).
// Included by run_seismic_float.cpp and run_seismic_double.cpp only (compiled by nvcc in
// CUDA builds: the point function's kernels are instantiated there).
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>
#include <type_traits>
#include <vector>

#ifdef TESSERA_MPI_DEVICE
#include <optional>

#include <tessera/mpi/device_exchange.hpp>
#include <tessera/mpi/device_point_function.hpp>
#endif

#include "outputs.hpp"
#include "policy_names.hpp"
#include "progress.hpp"

namespace tessera::app {

/// One damped acoustic step with a point source: u_prev, u (reach 4), c^2, the sponge's
/// s = sigma dt / 2, the source mask w (1 at the source point, 0 elsewhere).
template <class T>
struct seismic_step {
  using reach_type = reach<0, 4, 0, 0, 0>;
  T dt2_h2 = 0;  // (dt / h)^2
  T source = 0;  // dt^2 s(t) / h^3 at this step
  template <class P, class U, class C, class S, class W>
  TESSERA_HD T operator()(const P& u_prev, const U& u, const C& c2, const S& s, const W& w) const noexcept {
    return (T(2) * u() - (T(1) - s()) * u_prev() + c2() * dt2_h2 * physics::laplacian8<T>(u) + w() * source) /
           (T(1) + s());
  }
};

/// The largest eigenvalue of -h^2 Laplacian8 in 3D: 3 x (205/72 + 2 (8/5 + 1/5 + 8/315 + 1/560)).
inline constexpr double laplacian8_spectral_radius = 3 * (205.0 / 72 + 2 * (8.0 / 5 + 1.0 / 5 + 8.0 / 315 + 1.0 / 560));

template <class T>
struct seismic_setup {
  int n = 0, sponge = 0;
  double h = 0, dt = 0, limit = 0, f0 = 0, t0 = 0, c_min = 1, c_max = 1, sigma_max = 0;
  index_t src[3] = {0, 0, 0};  // z, y, x
  bool homogeneous = false;
  View<T, 3, HostSpace> c2, s, w;  // the whole grid's model (make_seismic_setup with fields)

  double ricker(double t) const {
    const double a = std::numbers::pi * f0 * (t - t0), a2 = a * a;
    return (1 - 2 * a2) * std::exp(-a2);
  }
  /// The wave speed at depth z.
  double speed(double z) const { return homogeneous ? 1.0 : 1.5 + 0.5 * std::tanh((z - 0.55) / 0.015); }

  /// Fills the model (c^2, the sponge's sigma dt / 2, the source mask) of the block of
  /// global points first + [0, extents) into c2, s, w: the whole grid, or one rank's block.
  void fill_model(const View<T, 3, HostSpace>& c2_, const View<T, 3, HostSpace>& s_, const View<T, 3, HostSpace>& w_,
                  const std::array<index_t, 3>& first) const {
    const auto& e = c2_.extents();
    for (index_t lz = 0; lz < e[0]; ++lz)
      for (index_t ly = 0; ly < e[1]; ++ly)
        for (index_t lx = 0; lx < e[2]; ++lx) {
          const index_t z = lz + first[0], y = ly + first[1], x = lx + first[2];
          const double c = speed((z + 0.5) * h);
          c2_(lz, ly, lx) = T(c * c);
          // depth into the sponge, in points: 0 outside it, up to 1 at the outermost point
          double depth = 0;
          for (index_t i : {z, y, x}) {
            const index_t from_edge = std::min<index_t>(i, n - 1 - i);
            if (from_edge < sponge) depth = std::max(depth, double(sponge - from_edge) / sponge);
          }
          s_(lz, ly, lx) = T(sigma_max * depth * depth * dt / 2);
          w_(lz, ly, lx) = T(z == src[0] && y == src[1] && x == src[2] ? 1 : 0);
        }
  }
};

/// The problem's parameters; with `fields`, the whole grid's model too.
template <class T>
seismic_setup<T> make_seismic_setup(const run_options& o, bool fields = true) {
  seismic_setup<T> m;
  const int n = o.size;
  m.n = n;
  m.h = 1.0 / n;
  m.homogeneous = o.model == "homogeneous";
  m.sponge = seismic_sponge_points(n);
  m.c_min = m.homogeneous ? 1.0 : m.speed(0.0);
  m.c_max = m.homogeneous ? 1.0 : m.speed(1.0);
  m.limit = 2 * m.h / (m.c_max * std::sqrt(laplacian8_spectral_radius));
  m.dt = o.dt ? *o.dt : 0.9 * m.limit;
  m.f0 = o.frequency ? *o.frequency : seismic_default_frequency(m.c_min, n);
  m.t0 = 1.2 / m.f0;
  m.sigma_max = 3 * m.c_max * std::log(1000.0) / (2 * m.sponge * m.h);
  for (int a = 0; a < 3; ++a) m.src[a] = n / 2;
  if (fields) {
    const extents<3> e{n, n, n};
    m.c2 = View<T, 3, HostSpace>("c2", e, 0);
    m.s = View<T, 3, HostSpace>("sponge", e, 0);
    m.w = View<T, 3, HostSpace>("source_mask", e, 0);
    m.fill_model(m.c2, m.s, m.w, {0, 0, 0});
  }
  return m;
}

/// Throws when dt exceeds the leapfrog's stability limit; the number of steps to run.
template <class T>
int seismic_steps(const seismic_setup<T>& m, const run_options& o) {
  if (m.dt > m.limit)
    throw invalid_argument_error("seismic3d: dt = " + std::to_string(m.dt) + " exceeds the leapfrog stability limit " +
                                 std::to_string(m.limit) + " (c_max " + std::to_string(m.c_max) + ", h " +
                                 std::to_string(m.h) + "); use a smaller --dt");
  const double points_per_wavelength = m.c_min / (m.f0 * m.h);
  if (points_per_wavelength < seismic_min_points_per_wavelength)
    throw invalid_argument_error("seismic3d: --frequency " + detail::sci(m.f0) + " leaves " +
                                 detail::sci(points_per_wavelength) + " points per wavelength at --size " +
                                 std::to_string(m.n) + " (c_min " + detail::sci(m.c_min) + "); the 8th-order scheme needs " +
                                 std::to_string(int(seismic_min_points_per_wavelength)) +
                                 " or more: lower the frequency or raise the size");
  // default duration: the wavefront (the wavelet's peak) 0.25 from the source, nearer where
  // the analytic check's outermost radius is nearer (small grids). With --frequency, also
  // where the wavelet's leading half, 0.6 c / f0 long (beyond it the Ricker wavelet is
  // below 3% of its peak), would otherwise reach the sponge: a sponge reflects the waves
  // longer than itself (--frequency 2 erred 0.12 of the peak on 48^3 and 96^3 without this
  // rule, 0.006 with it; the default frequency's wavelet is short enough at every size)
  const double to_sponge = (std::min<index_t>(m.src[2], m.n - 1 - m.src[2]) - m.sponge) * m.h;
  const double leading = 0.6 * m.c_min / m.f0;
  const radius_window window = seismic_analytic_window(m.n);
  double front = window.points() > 0 ? std::min(0.25, window.last * m.h) : 0.25;
  if (o.frequency) front = std::min(front, to_sponge - leading);
  if (o.frequency && front < 3 * m.h)
    throw invalid_argument_error("seismic3d: the wavelet of --frequency " + detail::sci(m.f0) + " (its leading half " +
                                 detail::sci(leading) + " long) does not fit the " + detail::sci(to_sponge) +
                                 " between the source and the sponge at --size " + std::to_string(m.n) +
                                 ": raise the frequency");
  return o.steps_given ? o.steps : static_cast<int>(std::ceil((m.t0 + front / m.c_min) / m.dt));
}

/// The source term of the step from time k dt: dt^2 s(k dt) / h^3.
template <class T>
T seismic_source(const seismic_setup<T>& m, int k) {
  return T(m.dt * m.dt * m.ricker(k * m.dt) / (m.h * m.h * m.h));
}

/// The analytic check's report line; true when it passed.
template <class R>
bool print_analytic(const R& r, double h) {
  std::printf("  analytic check (point source, homogeneous c = 1: u = s(t - r/c) / (4 pi c^2 r)), %d points on 4 "
              "axes: max |r u - exact| %.3f of the peak (limit 0.10), wavefront at r = %.4f vs c (t - t0) = %.4f "
              "(limit 1.5 h = %.4f): %s\n",
              r.points, r.error, r.front, r.front_exact, 1.5 * h, r.pass ? "pass" : "FAIL");
  return r.pass;
}

/// The x-z section through the source, as a width n x height n picture (z down).
template <class T>
void write_section_png(const std::string& path, const View<T, 3, HostSpace>& u, index_t y,
                       io::special_output special = io::special_output::refuse) {
  const index_t n = u.extents()[0];
  std::vector<double> v(static_cast<std::size_t>(n * n));
  for (index_t z = 0; z < n; ++z)
    for (index_t x = 0; x < n; ++x) v[static_cast<std::size_t>(z * n + x)] = u(z, y, x);
  io::write_png(path, v, n, n, special);
}

/// "wave.vti" + 3 -> "wave_0003.vti"
inline std::string numbered(const std::string& path, int k) {
  const auto dot = path.rfind('.');
  char num[16];
  std::snprintf(num, sizeof num, "_%04d", k);
  return path.substr(0, dot) + num + path.substr(dot);
}

struct analytic_report {
  double error = 0;        // max |r u - exact r u| / max |exact r u| over the checked radii
  double front = 0;        // radius of the largest r u along the axes (mean of 4 directions)
  double front_exact = 0;  // c (t - t0)
  int points = 0;
  bool pass = false;
};

/// The homogeneous field at time t against s(t - r/c) / (4 pi c^2 r) along +-x and +-y.
template <class T>
analytic_report check_analytic(const seismic_setup<T>& m, const View<T, 3, HostSpace>& u, double t) {
  analytic_report r;
  const double c = 1.0, scale = 1.0 / (4 * std::numbers::pi * c * c);
  double peak_exact = 0, worst = 0, front_sum = 0;
  const int dirs[4][2] = {{0, 1}, {0, -1}, {1, 0}, {-1, 0}};  // (dy, dx)
  const radius_window window = seismic_analytic_window(m.n);
  for (const auto& d : dirs) {
    double best = -1, best_r = 0;
    for (index_t k = window.first; k <= window.last; ++k) {
      const double rad = k * m.h;
      const double got = rad * double(u(m.src[0], m.src[1] + d[0] * k, m.src[2] + d[1] * k));
      const double exact = scale * m.ricker(t - rad / c);
      peak_exact = std::max(peak_exact, std::abs(exact));
      worst = std::max(worst, std::abs(got - exact));
      if (!std::isfinite(got)) worst = INFINITY;
      if (got > best) best = got, best_r = rad;
      ++r.points;
    }
    front_sum += best_r;
  }
  r.error = worst / std::max(peak_exact, 1e-300);
  r.front = front_sum / 4;
  r.front_exact = c * (t - m.t0);
  r.pass = r.points >= 4 * seismic_analytic_min_points && r.error <= 0.10 &&
           std::abs(r.front - r.front_exact) <= 1.5 * m.h;
  return r;
}

template <class T>
int run_seismic3d(const run_options& o) {
  const auto m = make_seismic_setup<T>(o);
  const int steps = seismic_steps(m, o);
  const int n = m.n;
  const extents<3> e{n, n, n};
  const int snapshots = o.snapshots;
  if (snapshots > steps)
    throw invalid_argument_error("seismic3d: --snapshots " + std::to_string(snapshots) + " exceeds the run's " +
                                 std::to_string(steps) + " steps (at most one snapshot a step)");
  // where snapshot k goes: numbered after --image, and after --output as .vti
  const auto snapshot_vti = [&](int k) { return numbered(o.output.substr(0, o.output.rfind('.')) + ".vti", k); };
  int written = 0;  // snapshots written by the run
  auto run = [&](auto policy, auto tag, View<T, 3, HostSpace>& out, bool show) {
    using Space = typename decltype(tag)::type;
    View<T, 3, Space> a("u_prev", e, 4), b("u", e, 4), c("u_next", e, 4), c2("c2", e, 0), s("sponge", e, 0),
        w("source_mask", e, 0);
    // at rest: all three time levels zero (ghosts too: the outer boundary is u = 0, behind the sponge)
    deep_copy(c2, m.c2);
    deep_copy(s, m.s);
    deep_copy(w, m.w);
    seismic_step<T> step{T(m.dt * m.dt / (m.h * m.h)), 0};
    View<T, 3, HostSpace> snap("u", e, 4);
    const progress_bar bar(show ? steps : 0);
    const auto t0 = std::chrono::steady_clock::now();
    for (int k = 0; k < steps; ++k) {
      // u_next at time (k + 1) dt from u at k dt: the source term of time k dt
      step.source = seismic_source(m, k);
      apply(policy, step, inputs(a, b, c2, s, w), c);
      View<T, 3, Space> t = a;
      a = b, b = c, c = t;
      if (show && bar.on() && (k + 1) % bar.every() == 0) bar.show(k + 1);
      if (show && snapshot_due(k + 1LL, snapshots, steps, written)) {
        synchronize(Space{});
        deep_copy(snap, b);
        ++written;
        if (!o.image.empty()) write_section_png(numbered(o.image, written), snap, m.src[1]);
        if (!o.output.empty())
          io::write_vti(snapshot_vti(written), snap, "pressure",
                        io::grid_geometry<3>{{m.h, m.h, m.h}, {m.h / 2, m.h / 2, m.h / 2}});
      }
    }
    synchronize(Space{});
    const double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    bar.clear();
    deep_copy(out, b);
    return sec;
  };

  View<T, 3, HostSpace> u_h("u", e, 4);
  double seconds = 0;
  std::string ran_with;
  with_policy(o.policy, [&](auto policy, auto tag) {
    ran_with = std::string(decltype(policy)::name()) + " on " + decltype(tag)::type::name;
    seconds = run(policy, tag, u_h, true);
  });
  const double t_end = steps * m.dt;
  std::printf("seismic3d: %s, %dx%dx%d %s, %s model (c %.2g..%.2g), Ricker f0 %.3g at the centre, sponge %d points, "
              "dt = %.3e (limit %.3e), %d steps to t = %.3f\n",
              ran_with.c_str(), n, n, n, o.precision.c_str(), m.homogeneous ? "homogeneous" : "layered", m.c_min,
              m.c_max, m.f0, m.sponge, m.dt, m.limit, steps, t_end);
  const double rate = double(e.size()) * steps / std::max(seconds, 1e-12);
  std::printf("  time %.3f s, %.3f GCell-updates/s, %.1f GB/s of fields (5 read + 1 written a point)\n", seconds,
              rate * 1e-9, rate * 6 * sizeof(T) * 1e-9);
  const double umax = norm_max(u_h);
  std::printf("  max |u| %.4g\n", umax);
  int status = report_nonfinite(u_h);
  if (o.validate) {
    View<T, 3, HostSpace> ref("u_ref", e, 4);
    const auto reference = with_reference(o.policy, [&](auto p) { run(p, space_tag<HostSpace>{}, ref, false); });
    status = std::max(status, report_validation(compare(u_h, ref), umax, stepping_tolerance<T>(steps), reference));
    if (m.homogeneous) {
      status = std::max(status, print_analytic(check_analytic(m, u_h, t_end), m.h) ? 0 : 1);
    }
  }
  if (!o.output.empty()) {
    if (o.output.ends_with(".npy")) io::write_npy(o.output, u_h, special_of(o));
    else io::write_vti(o.output, u_h, "pressure", io::grid_geometry<3>{{m.h, m.h, m.h}, {m.h / 2, m.h / 2, m.h / 2}}, {},
                       special_of(o));
    std::printf("  wrote %s\n", o.output.c_str());
  }
  if (!o.image.empty()) {
    write_section_png(o.image, u_h, m.src[1], special_of(o));
    std::printf("  wrote %s (x-z section through the source)\n", o.image.c_str());
  }
  if (written > 0)
    std::printf("  wrote %d snapshots:%s%s\n", written,
                o.image.empty() ? "" : (" " + numbered(o.image, 1) + " to " + numbered(o.image, written)).c_str(),
                o.output.empty() ? "" : (" " + snapshot_vti(1) + " to " + snapshot_vti(written)).c_str());
  return status;
}

#ifdef TESSERA_MPI_DEVICE
/// One step of the distributed seismic3d on device views (run_seismic_mpi.cpp) with the
/// CUDA policy named `policy`: mpi::apply of the step, u's halos through `exchange`, the
/// inner box swept while they travel where the process grid allows. The point function's
/// kernels are instantiated in the nvcc units (run_seismic_float.cpp, run_seismic_double.cpp:
/// `template struct seismic_device<T>;`), beside the single-process run's, while the
/// distributed run is built by the host compiler. step() throws invalid_argument_error for
/// a name that is not a CUDA policy of this build.
template <class T>
struct seismic_device {
  using field = mpi::distributed_view<T, 3, CudaSpace>;
  static void step(const std::string& policy, const seismic_step<T>& step, const field& u_prev, const field& u,
                   const field& c2, const field& s, const field& w, const field& u_next,
                   const std::optional<boundary_conditions<3>>& bc, mpi::device_exchange<T, 3>& exchange);
};
#ifdef __CUDACC__
template <class T>
void seismic_device<T>::step(const std::string& policy, const seismic_step<T>& step, const field& u_prev, const field& u,
                             const field& c2, const field& s, const field& w, const field& u_next,
                             const std::optional<boundary_conditions<3>>& bc, mpi::device_exchange<T, 3>& exchange) {
  bool on_device = false;
  with_policy(policy, [&](auto p, auto tag) {
    if constexpr (std::is_same_v<typename decltype(tag)::type, CudaSpace>) {
      mpi::apply(p, step, mpi::inputs(u_prev, u, c2, s, w), u_next, bc, exchange);
      on_device = true;
    }
  });
  if (!on_device)
    throw invalid_argument_error("seismic3d: '" + policy + "' is not a CUDA policy of this build (device views)");
}
#endif
extern template struct seismic_device<float>;
extern template struct seismic_device<double>;
#endif

}  // namespace tessera::app
