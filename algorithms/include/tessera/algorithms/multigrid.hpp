#pragma once
// Geometric multigrid for A u = f (algorithms/elliptic_operator.hpp), every level on the
// policy the caller chose: smoothers, residuals and the coarse solve are point-function
// sweeps (multigrid_sweeps.hpp), the transfers are grid_transfer.hpp's, the norms and dot
// products reduce.hpp's; all of them run in the views' memory space.
//
//   auto op = tessera::poisson_operator<Space>(tessera::fd::laplacian<3, 2>(h));
//   tessera::multigrid_solver mg(policy, op, f.extents(), bc);           // levels built once
//   auto result = mg.solve(f, u);                                       // cycles to opt.tol
//   // or in one call: tessera::multigrid_solve(policy, op, f, u, bc, opt)
//
// - Levels: each axis coarsens as its faces say (core/grid_transfer.hpp) until an axis no
//   longer coarsens or a level has at most opt.coarsest_points points (an anisotropic
//   operator coarsens only its strongly coupled axes until the coupling evens out); the
//   coarsest level is solved by conjugate gradients (its residual reduced by 1e-3; by 1e-10,
//   float 1e-5, when the finest level is the only one).
// - Smoothers (opt.smoother): weighted Jacobi (omega 4/5 in 2D, 6/7 in 3D), red-black
//   Gauss-Seidel (two half sweeps a step, the colour read from a mask field, since point
//   functions see no coordinates), Chebyshev of degree opt.pre_smooth / post_smooth on
//   [lambda_max / 8, lambda_max] of D^-1 A, lambda_max = 2 (Gershgorin's bound, which every
//   operator here meets).
// - Cycles: V, W, F; opt.full_multigrid starts with one FMG pass (nested iteration on the
//   error equation from the initial guess: the coarse problems have homogeneous boundaries,
//   and level 0 adds their prolonged answer to u before its own cycle).
// - The residual is measured in the max norm after each cycle; the solve stops when it is at
//   most opt.tol * reference, reference = max(max |f|, the initial residual), or after
//   opt.max_cycles, or when two cycles in a row reduce it by less than a factor 0.8
//   (stagnation: the precision's floor, typically float's). The result says which.
// - Singular problems (no Dirichlet face and no zero-order term: the constants are a null
//   space): f must be compatible (|mean f| <= opt.compatibility_tol * max |f|, else the
//   solve is refused by name); its mean is removed (reported) and the solution returned
//   with mean zero.
// - u is the initial guess and the result; its ghost layer (width >= 1) is filled by bc.
// - A policy with multigrid kernels of its own (cuda::automatic: tessera/cuda/
//   multigrid_kernels.hpp, found by argument-dependent lookup on the policy) runs the
//   levels on them where they apply (a constant star, no periodic axis): the same
//   arithmetic as the point functions in fewer passes and launches. fused_kernels() says
//   whether a solver does. Where the policy also records launches (cycle_recording_for),
//   a V-cycle's part from the first level of at most opt.graph_below_points points down is
//   recorded once and replayed each cycle as one launch (a CUDA graph): the same kernels
//   with the same arguments, so the results are the same bit for bit.
#include <algorithm>
#include <chrono>
#include <concepts>
#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "tessera/algorithms/apply_point_function.hpp"
#include "tessera/algorithms/boundary_fill.hpp"
#include "tessera/algorithms/elliptic_operator.hpp"
#include "tessera/algorithms/grid_transfer.hpp"
#include "tessera/algorithms/detail/multigrid_sweeps.hpp"
#include "tessera/algorithms/reduce.hpp"
#include "tessera/algorithms/source_term.hpp"
#include "tessera/core/deep_copy.hpp"
#include "tessera/core/errors.hpp"
#include "tessera/core/fields.hpp"
#include "tessera/core/detail/format.hpp"
#include "tessera/core/policy.hpp"
#include "tessera/core/detail/star_level.hpp"

namespace tessera {

enum class mg_smoother { jacobi, red_black_gauss_seidel, chebyshev };
enum class mg_cycle { v, w, f };

inline std::string to_string(mg_smoother s) {
  return s == mg_smoother::jacobi ? "jacobi" : s == mg_smoother::chebyshev ? "chebyshev" : "red-black Gauss-Seidel";
}
inline std::string to_string(mg_cycle c) { return c == mg_cycle::v ? "V" : c == mg_cycle::w ? "W" : "F"; }

struct multigrid_options {
  mg_cycle cycle = mg_cycle::v;
  mg_smoother smoother = mg_smoother::red_black_gauss_seidel;
  int pre_smooth = 2;
  int post_smooth = 2;
  int max_cycles = 100;
  double tol = 1e-10;             // relative to max(max |f|, initial residual), max norm
  bool full_multigrid = false;    // one FMG pass before the cycles
  double jacobi_weight = 0;       // 0: 4/5 in 2D, 6/7 in 3D, 2/3 in 1D
  double gauss_seidel_weight = 0; // red-black over-relaxation; 0: 1.15 in 2D, 1.2 in 3D, 1 in 1D
  index_t coarsest_points = 64;   // stop coarsening at or below this many points
  // Where the policy records launches (cuda::automatic), the V-cycle's part from the first
  // level below level 0 of at most this many points down is recorded once as a CUDA graph
  // and replayed each cycle (coarse levels are launch-bound); 0 never records.
  index_t graph_below_points = index_t(1) << 21;
  int coarse_max_iterations = 10000;
  double compatibility_tol = 1e-6;
  // Time each level's share (smoothing, residual, transfers; the coarse solve on the
  // coarsest): the space is synchronised around each level's work, which costs a little on a
  // GPU, so it is off unless asked (tessera-bench --solver turns it on for one extra solve).
  bool time_levels = false;
  // How a variable conductivity reaches the coarse levels along cell axes: the mean of each
  // pair (false), or the prolongation's transpose (true, which spreads a jump over two coarse
  // points). Across a conductivity jump V-cycles converge faster with the mean, while cg
  // preconditioned by a cycle stalls with it and converges with the transpose (the coarse
  // operator it builds keeps the cycle a good symmetric preconditioner; perf/RESULTS.md has
  // the measurements). cg_solve sets it; multigrid_solve keeps the mean.
  bool adjoint_coefficients = false;
  std::function<void(int cycle, double residual)> progress;  // after each cycle
};

struct multigrid_result {
  int cycles = 0;
  std::vector<double> residuals;  // max |f - A u|: before the first cycle, then after each
  double reference = 0;           // max(max |f|, initial residual): tol is relative to it
  double rhs_max = 0;
  double convergence_factor = 0;  // geometric mean of the residual reduction per cycle
  bool converged = false;
  std::string stop_reason;
  int levels = 0;
  std::vector<std::string> level_extents;  // finest first, e.g. "127x127"
  bool singular = false;                   // constants are a null space (solution returned with mean 0)
  double rhs_mean_removed = 0;             // singular problems: the mean taken off f
  bool full_multigrid = false;
  double fmg_residual = 0;  // after the FMG pass (full_multigrid only)
  // The residual that rounding alone leaves in T (detail::rounding_floor): 4 eps (max
  // diagonal x max |u| + max |f|). A stagnated solve at or below it has reached the
  // precision's floor.
  double precision_floor = 0;
  std::vector<double> level_seconds;  // time_levels only: seconds spent on each level, finest first
};

namespace detail {
/// The residual max |f - A u| that rounding alone leaves in T, for a positive form whose
/// largest diagonal is d (its off-diagonal magnitudes sum to at most d), |u| <= u_max and
/// |f| <= f_max. u is held to half an ulp a point, and A of a checkerboard of half-ulp
/// errors is 2 d times that (eps d u_max); evaluating f - A u rounds each of its 2 Rank + 2
/// terms again (up to about 4 eps d u_max in 3D at worst). 4 eps (d u_max + f_max) lies
/// between the typical and the worst case: float solves stagnate at 0.4-0.5 of it, and at
/// 2 eps a kernel's rounding (the same solve on the host and on CUDA) moved a stagnated
/// solve to either side of the floor.
template <class T>
double rounding_floor(double max_diagonal, double max_u, double max_f) {
  return 4 * static_cast<double>(std::numeric_limits<T>::epsilon()) * (max_diagonal * max_u + max_f);
}

/// Why a multigrid solve stopped, from its result (converged, cycles, full_multigrid and
/// precision_floor set) and its last residual r.
inline std::string multigrid_stop_reason(const multigrid_result& res, double r, int max_cycles, bool single) {
  if (!std::isfinite(r)) return "the residual is not finite (" + sci(r) + "): the solve diverged or the input holds NaN";
  if (res.converged)
    return res.cycles == 0 && !res.full_multigrid ? "the initial guess already meets the tolerance"
                                                  : "the residual reached tol x reference";
  if (res.cycles >= max_cycles) return "max_cycles (" + std::to_string(max_cycles) + ") reached";
  if (r <= res.precision_floor)
    return "stagnated at the precision's floor (" + sci(res.precision_floor) + "): the tolerance is below what " +
           (single ? "float" : "double") + " can reach";
  return "stagnated above the precision's floor: two cycles in a row reduced the residual by less than 0.8";
}

/// The cycles of a multigrid solve from residual r: cycle() runs one cycle and norm() returns
/// the residual after it, until r <= target, r is not finite, max_cycles ran, or two cycles
/// in a row reduced r by less than a factor 0.8 (stagnation). Each residual is appended to
/// res.residuals (which holds r's) and passed to progress; returns the last.
template <class Cycle, class Norm>
double run_cycles(multigrid_result& res, double r, double target, int max_cycles,
                  const std::function<void(int, double)>& progress, Cycle&& cycle, Norm&& norm) {
  int slow = 0;
  while (std::isfinite(r) && !(r <= target) && res.cycles < max_cycles) {
    cycle();
    ++res.cycles;
    const double before = res.residuals.back();
    r = norm();
    res.residuals.push_back(r);
    if (progress) progress(res.cycles, r);
    slow = r > 0.8 * before ? slow + 1 : 0;
    if (slow >= 2 && !(r <= target)) break;
  }
  return r;
}

/// Runs f and adds its time to acc, with the space synchronised before and after so that a
/// GPU's queued work is counted where it ran (the solvers' time_levels).
template <class Space, class F>
void run_timed(double& acc, F&& f) {
  synchronize(Space{});
  const auto t0 = std::chrono::steady_clock::now();
  f();
  synchronize(Space{});
  acc += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

/// The cycles on level l + 1 that a cycle of `kind` on level l runs between its smoothing
/// (V: one V; W: two W; F: an F, then a V), one only where l + 1 is the last level:
/// cycle(level, kind) for each.
template <class Cycle>
void coarser_cycles(int l, int last, mg_cycle kind, Cycle&& cycle) {
  if (kind == mg_cycle::v) {
    cycle(l + 1, mg_cycle::v);
  } else if (kind == mg_cycle::w) {
    cycle(l + 1, mg_cycle::w);
    if (l + 1 < last) cycle(l + 1, mg_cycle::w);
  } else {
    cycle(l + 1, mg_cycle::f);
    if (l + 1 < last) cycle(l + 1, mg_cycle::v);
  }
}

template <int Rank>
boundary_conditions<Rank> homogeneous(boundary_conditions<Rank> bc) {
  for (auto& f : bc.faces)
    if (f.kind == boundary_kind::dirichlet) f.value = 0;
  return bc;
}
/// The conditions for a coefficient field: mirrored at walls, periodic where the problem is.
template <int Rank>
boundary_conditions<Rank> coefficient_conditions(boundary_conditions<Rank> bc) {
  for (auto& f : bc.faces)
    if (f.kind != boundary_kind::periodic) f = boundary::neumann();
  return bc;
}
}  // namespace detail

template <execution_policy Policy, class T, int Rank, class Space>
class multigrid_solver {
  static_assert(Rank >= 1 && Rank <= 3, "tessera::multigrid_solver: grids of rank 1, 2 or 3");
  static_assert(std::is_floating_point_v<T>, "tessera::multigrid_solver: float or double");
  using view = View<T, Rank, Space>;

  struct level {
    extents<Rank> n;
    view u, g, r, t, p, q, mask, k, ones;
    level_coefficients<T, Rank> c;
    boundary_conditions<Rank> bc;  // homogeneous below level 0
    coarsening_modes<Rank> down{};  // how each axis coarsens to the next level
    // each Dirichlet face's wall: this many spacings beyond the last point (1: on the ghost)
    array<double, 2 * Rank> wall{};
  };

 public:
  multigrid_solver(const Policy& policy, const elliptic_operator<T, Rank, Space>& op, const extents<Rank>& interior,
                   const boundary_conditions<Rank>& bc, const multigrid_options& opt = {})
      : policy_(policy), opt_(opt), bc_(bc) {
    const std::string who = "tessera::multigrid_solver(" + Policy::name() + ")";
    static_assert(policy_reaches_v<Policy, Space>,
                  "tessera::multigrid_solver: this policy cannot reach the views' memory space");
    check_options(who);
    tessera::detail::refuse_fixed_faces<Rank>(who, bc);
    for (int d = 0; d < Rank; ++d) {
      if (interior[d] < 1)
        throw invalid_argument_error(who + ": the grid " + interior.to_string() +
                                     " is too small: every axis needs at least 1 point (3 or more to coarsen)");
      const auto lo = bc.faces[2 * d].kind, hi = bc.faces[2 * d + 1].kind;
      if ((lo == boundary_kind::periodic) != (hi == boundary_kind::periodic))
        throw invalid_argument_error(who + ": axis " + std::to_string(d) + " is periodic on one face only");
      if (bc.faces[2 * d].kind == boundary_kind::dirichlet && !std::isfinite(bc.faces[2 * d].value))
        throw invalid_argument_error(who + ": the Dirichlet value of face " + std::to_string(2 * d) + " is not finite");
      if (bc.faces[2 * d + 1].kind == boundary_kind::dirichlet && !std::isfinite(bc.faces[2 * d + 1].value))
        throw invalid_argument_error(who + ": the Dirichlet value of face " + std::to_string(2 * d + 1) +
                                     " is not finite");
    }
    variable_ = op.variable();
    const auto c0 = check_elliptic(op, who);
    bool any_dirichlet = false;
    for (const auto& f : bc.faces) any_dirichlet |= f.kind == boundary_kind::dirichlet;
    singular_ = !any_dirichlet && c0.shift == T(0);
    if (variable_) {
      if (!(op.k.extents() == interior))
        throw extent_mismatch_error(who + ": the conductivity " + op.k.describe() + " does not match the grid " +
                                    interior.to_string());
      if (const auto bad = find_nonfinite(op.k); bad.count > 0)
        throw invalid_argument_error(who + ": the conductivity " + op.k.describe() + " holds " +
                                     std::to_string(bad.count) + " NaN or infinite value(s), the first at " + bad.first);
      view flags("mg_k_not_positive", layout<Rank>(interior, 0));
      apply(policy_, multigrid_detail::not_positive_sweep<T>{}, op.k, flags);
      if (const double count = dot(flags, flags); count > 0)
        throw invalid_argument_error(who + ": the operator is not elliptic: the conductivity " + op.k.describe() +
                                     " is <= 0 at " + std::to_string(static_cast<long long>(count)) +
                                     " point(s); div(k grad) needs k > 0 everywhere");
    }
    // the policy's own kernels where they apply: a constant star (variable k keeps the point
    // functions) and no periodic axis (a periodic ghost would hand the second colour a stale
    // first-colour value)
    fused_ = has_fused_kernels && !variable_;
    for (const auto& f : bc.faces) fused_ = fused_ && f.kind != boundary_kind::periodic;
    build_levels(op, interior, c0);
  }

  /// Whether this policy has multigrid kernels of its own (cuda::automatic: see
  /// has_fused_kernels below); fused_kernels() says whether this solver uses them.
  static constexpr bool policy_has_multigrid_kernels() { return has_fused_kernels; }
  bool fused_kernels() const { return fused_; }
  /// How many times the recorded coarse part of a cycle has been launched as one graph (0
  /// where nothing is recorded: see multigrid_options::graph_below_points).
  long long recorded_cycle_launches() const {
    if constexpr (has_cycle_recording) return recording_.replayed();
    else return 0;
  }

  int levels() const { return static_cast<int>(lv_.size()); }
  const extents<Rank>& level_extents(int l) const { return lv_.at(static_cast<std::size_t>(l)).n; }
  bool singular() const { return singular_; }
  const multigrid_options& options() const { return opt_; }

  /// Cycles on A u = f from the initial guess u (ghost width >= 1; its ghosts are filled by bc).
  multigrid_result solve(const view& f, const view& u) {
    const std::string who = "tessera::multigrid_solver::solve(" + Policy::name() + ")";
    check_views(f, u, who);
    multigrid_result res;
    res.levels = levels();
    res.singular = singular_;
    for (const auto& L : lv_) res.level_extents.push_back(L.n.to_string());
    auto& L0 = lv_[0];
    // level 0 works on u itself (and a scratch of u's layout): no copy of the solution
    L0.u = u;
    if (!(L0.t.layout() == u.layout())) L0.t = view("mg_t0", u.layout());
    // g = sigma f (the positive form), the mean taken off where the problem is singular
    apply(policy_, multigrid_detail::combine_sweep<T>{L0.c.sigma, T(0), T(0)}, inputs(f, f), L0.g);
    res.rhs_max = norm_max(f);
    if (singular_) {
      const double mean = compatible_mean(who);
      res.rhs_mean_removed = static_cast<double>(L0.c.sigma) * mean;
      remove_mean(L0.g, L0, mean);
    }
    level_seconds_.assign(lv_.size(), 0.0);
    step_pending_ = false;
    double r = cycle_norm(opt_.max_cycles > 0 && !opt_.full_multigrid);
    res.residuals.push_back(r);
    res.reference = std::max(res.rhs_max, r);
    const double target = opt_.tol * res.reference;
    if (opt_.full_multigrid && !(r <= target) && std::isfinite(r)) {
      full_multigrid_pass();  // (the norm above took no step: cycle_norm(false) under FMG)
      r = cycle_norm(opt_.max_cycles > 0);
      res.full_multigrid = true;
      res.fmg_residual = r;
    }
    r = detail::run_cycles(
        res, r, target, opt_.max_cycles, opt_.progress, [&] { cycle(0, opt_.cycle); },
        [&] { return cycle_norm(res.cycles < opt_.max_cycles); });
    step_pending_ = false;  // a step taken with the last norm is dropped: u is the answer
    if (singular_) {  // the solution of mean zero
      const double mean = dot(L0.u, L0.ones) / static_cast<double>(L0.n.size());
      remove_mean(L0.u, L0, mean);
      fill_ghosts(L0.u, bc_);
    }
    if (L0.u.data() != u.data()) {  // an odd number of out-of-place sweeps: the result is in the scratch
      deep_copy(u, L0.u);
      std::swap(L0.u, L0.t);
    }
    L0.u = view();  // the solver keeps no handle on the caller's view
    res.converged = r <= target;
    // per cycle, from where the cycles started (after the FMG pass when there was one)
    const double start = res.full_multigrid ? res.fmg_residual : res.residuals.front();
    if (res.cycles > 0 && start > 0 && r > 0) res.convergence_factor = std::pow(r / start, 1.0 / res.cycles);
    if (opt_.time_levels) res.level_seconds = level_seconds_;
    res.precision_floor = detail::rounding_floor<T>(max_diagonal(), norm_max(u), res.rhs_max);
    res.stop_reason = detail::multigrid_stop_reason(res, r, opt_.max_cycles, sizeof(T) == 4);
    return res;
  }

  /// One cycle on A' z = r from z = 0 with homogeneous boundaries, A' = sigma A the positive
  /// form (elliptic_operator.hpp) and r given in that form: cg's preconditioner. z and r on
  /// the finest level's extents, z's ghost width >= 1, z not r.
  void precondition(const view& r, const view& z) {
    auto& L0 = lv_[0];
    step_pending_ = false;  // (a solve that threw may have left one)
    L0.u = z;
    if (!(L0.t.layout() == z.layout())) L0.t = view("mg_t0", z.layout());
    apply(policy_, multigrid_detail::combine_sweep<T>{T(1), T(0), T(0)}, inputs(r, r), L0.g);
    project(L0.g);
    set_zero(L0);
    const auto saved = L0.bc;
    L0.bc = detail::homogeneous(bc_);
    symmetric_ = true;
    cycle(0, opt_.cycle);
    symmetric_ = false;
    L0.bc = saved;
    project(L0.u);
    if (L0.u.data() != z.data()) {
      apply(policy_, multigrid_detail::combine_sweep<T>{T(1), T(0), T(0)}, inputs(L0.u, L0.u), z);
      std::swap(L0.u, L0.t);
    }
    L0.u = view();
  }

  /// r = sigma (f - A u), u's ghosts filled by the boundary conditions; returns max |r|.
  double residual_into(const view& f, const view& u, const view& r) {
    auto& L0 = lv_[0];
    fill_ghosts(u, bc_);
    with_op(0, [&](auto op, const auto&... k) {
      apply(policy_, multigrid_detail::combine_sweep<T>{L0.c.sigma, T(0), T(0)}, inputs(f, f), L0.g);
      apply(policy_, multigrid_detail::residual_sweep<T, decltype(op)>{op}, inputs(u, L0.g, k...), r);
    });
    return norm_max(r);
  }

  /// y = A' x, x's ghosts filled by the homogeneous boundary conditions (a correction's).
  void apply_positive(const view& x, const view& y) {
    fill_ghosts(x, detail::homogeneous(bc_));
    with_op(0, [&](auto op, const auto&... k) {
      apply(policy_, multigrid_detail::operator_sweep<T, decltype(op)>{op}, inputs(x, k...), y);
    });
  }

  /// The sign sigma of the positive form A' = sigma A.
  T sign() const { return lv_[0].c.sigma; }

  /// Removes the mean of v (finest level) where the problem is singular; nothing otherwise.
  void project(const view& v) {
    if (!singular_) return;
    auto& L0 = lv_[0];
    add_scaled(v, static_cast<T>(-dot(v, L0.ones) / static_cast<double>(L0.n.size())), L0.ones);
  }

  /// Singular problems: refuses an f whose mean is not small against max |f| (by name);
  /// nothing otherwise.
  void check_compatible(const view& f, const std::string& who) {
    if (!singular_) return;
    apply(policy_, multigrid_detail::combine_sweep<T>{lv_[0].c.sigma, T(0), T(0)}, inputs(f, f), lv_[0].g);
    (void)compatible_mean(who);
  }

  /// Checks f and u as solve does (extents, ghost layer, finite values); throws by name.
  void check_arguments(const view& f, const view& u, const std::string& who) const { check_views(f, u, who); }

 private:
  /// The largest diagonal of level 0's positive form (the scale of its rounding).
  double max_diagonal() {
    const auto& c = lv_[0].c;
    double d = static_cast<double>(c.shift);
    if (variable_) {
      const double kmax = norm_max(lv_[0].k);
      for (int a = 0; a < Rank; ++a) d += 2 * static_cast<double>(c.beta) * static_cast<double>(c.inv_h2[a]) * kmax;
    } else {
      for (int a = 0; a < Rank; ++a) d += 2 * static_cast<double>(c.w[a]);
    }
    return d;
  }

  /// The mean of level 0's g (sigma f), refused unless compatible.
  double compatible_mean(const std::string& who) {
    auto& L0 = lv_[0];
    const double mean = dot(L0.g, L0.ones) / static_cast<double>(L0.n.size());
    const double gmax = norm_max(L0.g);
    if (std::fabs(mean) > opt_.compatibility_tol * gmax)
      throw invalid_argument_error(
          who + ": the problem is singular (no Dirichlet face and no zero-order term: constants solve A u = 0) "
                "and the right-hand side is incompatible: its mean " +
          detail::sci(static_cast<double>(L0.c.sigma) * mean) + " is " + detail::sci(std::fabs(mean) / gmax) +
          " of max |f| (allowed: compatibility_tol = " + detail::sci(opt_.compatibility_tol) +
          "); a solution exists only for f of mean zero (Neumann and periodic problems: integrate f to 0)");
    return mean;
  }

  void check_options(const std::string& who) const {
    auto bad = [&](const std::string& what) { throw invalid_argument_error(who + ": " + what); };
    if (opt_.pre_smooth < 0 || opt_.post_smooth < 0 || opt_.pre_smooth > 100 || opt_.post_smooth > 100)
      bad("pre_smooth = " + std::to_string(opt_.pre_smooth) + ", post_smooth = " + std::to_string(opt_.post_smooth) +
          ": each must be 0 .. 100");
    if (opt_.pre_smooth + opt_.post_smooth == 0) bad("pre_smooth + post_smooth = 0: a cycle without smoothing does not converge");
    if (opt_.max_cycles < 0) bad("max_cycles = " + std::to_string(opt_.max_cycles) + " is negative");
    if (!(opt_.tol > 0) || !std::isfinite(opt_.tol)) bad("tol = " + detail::sci(opt_.tol) + " must be a finite number > 0");
    if (opt_.jacobi_weight < 0 || opt_.jacobi_weight > 1 || !std::isfinite(opt_.jacobi_weight))
      bad("jacobi_weight = " + detail::sci(opt_.jacobi_weight) + " must be in (0, 1] (0 picks the default)");
    if (opt_.coarsest_points < 1) bad("coarsest_points = " + std::to_string(opt_.coarsest_points) + " must be >= 1");
    if (opt_.graph_below_points < 0)
      bad("graph_below_points = " + std::to_string(opt_.graph_below_points) + " must be >= 0 (0: never record)");
    if (opt_.coarse_max_iterations < 1)
      bad("coarse_max_iterations = " + std::to_string(opt_.coarse_max_iterations) + " must be >= 1");
    if (!(opt_.compatibility_tol >= 0) || !std::isfinite(opt_.compatibility_tol))
      bad("compatibility_tol = " + detail::sci(opt_.compatibility_tol) + " must be a finite number >= 0");
  }

  void check_views(const view& f, const view& u, const std::string& who) const {
    detail::require_allocated(f, who, "right-hand side f");
    detail::require_allocated(u, who, "solution u");
    if (!(f.extents() == lv_[0].n) || !(u.extents() == lv_[0].n))
      throw extent_mismatch_error(who + ": f " + f.describe() + " and u " + u.describe() +
                                  " must both have the solver's grid " + lv_[0].n.to_string());
    if (u.ghost() < 1)
      throw invalid_argument_error(who + ": u " + u.describe() +
                                   " has no ghost layer; the solver reads one (allocate u with ghost 1)");
    if (f.data() == u.data()) throw aliasing_error(who + ": f and u are the same view (" + u.describe() + ")");
    if (const auto bad = find_nonfinite(f); bad.count > 0)
      throw invalid_argument_error(who + ": the right-hand side " + f.describe() + " holds " +
                                   std::to_string(bad.count) + " NaN or infinite value(s), the first at " + bad.first);
    if (const auto bad = find_nonfinite(u); bad.count > 0)
      throw invalid_argument_error(who + ": the initial guess " + u.describe() + " holds " + std::to_string(bad.count) +
                                   " NaN or infinite value(s), the first at " + bad.first);
  }

  /// A level's fields: one ghost layer, rows padded as a view built from extents is (every
  /// row's interior on a 128-byte boundary), so the kernels take their vector paths and
  /// every policy serves them (cuda::pipelined copies rows in 16-byte pieces).
  static layout<Rank> level_layout(const extents<Rank>& n) { return layout<Rank>(n, 1, default_row_alignment<T>); }

  void build_levels(const elliptic_operator<T, Rank, Space>& op, extents<Rank> n, level_coefficients<T, Rank> c) {
    array<double, 2 * Rank> wall{};
    for (int f = 0; f < 2 * Rank; ++f) wall[f] = 1;
    for (int l = 0;; ++l) {
      level L;
      L.n = n;
      L.c = c;
      L.bc = l == 0 ? bc_ : detail::homogeneous(bc_);
      L.wall = wall;
      const layout<Rank> lay = level_layout(n);
      const std::string tag = "mg" + std::to_string(l) + "_";
      if (l > 0) L.u = view(tag + "u", lay);
      L.g = view(tag + "g", lay);
      L.r = view(tag + "r", lay);
      L.t = view(tag + "t", lay);
      // The next level: the axes coupled within a factor 2 of the strongest coarsen (an
      // anisotropic operator coarsens its strong axes first: point smoothers only smooth
      // along them), when they can; none, when this level is small already.
      double strength[Rank], strongest = 0;
      for (int d = 0; d < Rank; ++d) {
        strength[d] = variable_ ? static_cast<double>(c.inv_h2[d]) : static_cast<double>(c.w[d]);
        strongest = std::max(strongest, strength[d]);
      }
      bool coarsens = false;
      extents<Rank> m = n;
      for (int d = 0; d < Rank; ++d) {
        L.down[d] = coarsening::none;
        const auto mode = axis_coarsening(n[d], bc_.faces[2 * d].kind, bc_.faces[2 * d + 1].kind);
        if (mode && strength[d] >= 0.5 * strongest) {
          L.down[d] = *mode;
          m[d] = *coarse_extent(n[d], *mode);
          coarsens = true;
        }
      }
      coarsens = coarsens && n.size() > opt_.coarsest_points && l < 60;
      lv_.push_back(L);
      if (!coarsens) break;
      for (int d = 0; d < Rank; ++d)
        for (int side = 0; side < 2; ++side) wall[2 * d + side] = wall_distance_after(L.down[d], wall[2 * d + side]);
      n = m;
      c = coarsened(c, L.down);
    }
    const int last = levels() - 1;
    for (int l = 1; l <= last && graph_level_ < 0 && opt_.graph_below_points > 0; ++l)
      if (lv_[static_cast<std::size_t>(l)].n.size() <= opt_.graph_below_points) graph_level_ = l;
    for (int l = 0; l <= last; ++l) {
      auto& L = lv_[static_cast<std::size_t>(l)];
      const layout<Rank> lay = level_layout(L.n);
      const std::string tag = "mg" + std::to_string(l) + "_";
      if (opt_.smoother == mg_smoother::chebyshev || l == last) {
        L.p = view(tag + "p", lay);
        L.q = view(tag + "q", lay);
      }
      if (opt_.smoother == mg_smoother::red_black_gauss_seidel && !fused_) {
        View<T, Rank, HostSpace> m(tag + "mask_host", lay);
        const auto a = m.accessor();
        for (index_t i = 0; i < L.n.size(); ++i) {
          index_t rest = i, parity = 0, off = 0;
          for (int d = Rank - 1; d >= 0; --d) {
            const index_t x = rest % L.n[d];
            rest /= L.n[d];
            parity += x;
            off += x * a.stride[d];
          }
          a.origin[off] = parity % 2 == 0 ? T(1) : T(0);  // red: even coordinate sums
        }
        L.mask = view(tag + "mask", lay);
        deep_copy(L.mask, m);
      }
      if (singular_ && (l == 0 || l == last)) {
        L.ones = view(tag + "ones", lay);
        apply(policy_, multigrid_detail::combine_sweep<T>{T(0), T(0), T(1)}, inputs(L.g, L.g), L.ones);
      }
    }
    if (variable_) {  // k on every level: a copy with ghosts (the caller's is not written), then restrictions
      const auto kbc = detail::coefficient_conditions(bc_);
      lv_[0].k = view("mg0_k", level_layout(lv_[0].n));
      apply(policy_, multigrid_detail::combine_sweep<T>{T(1), T(0), T(0)}, inputs(op.k, op.k), lv_[0].k);
      fill_ghosts(lv_[0].k, kbc);
      for (int l = 1; l <= last; ++l) {
        auto& L = lv_[static_cast<std::size_t>(l)];
        L.k = view("mg" + std::to_string(l) + "_k", level_layout(L.n));
        restrict_full_weighting(lv_[static_cast<std::size_t>(l - 1)].k, L.k, lv_[static_cast<std::size_t>(l - 1)].down,
                                opt_.adjoint_coefficients);
        fill_ghosts(L.k, kbc);
      }
    }
  }

  /// Fills v's ghosts by level l's conditions; a Dirichlet wall between grid points (after a
  /// cell coarsening) by linear extrapolation through 0 (core/grid_transfer.hpp).
  void fill(int l, const view& v, bool homogeneous = false) {
    const auto& L = lv_[static_cast<std::size_t>(l)];
    fill_ghosts(v, homogeneous ? detail::homogeneous(L.bc) : L.bc);
    for (int d = 0; d < Rank; ++d)
      for (int side = 0; side < 2; ++side)
        if (L.bc.faces[2 * d + side].kind == boundary_kind::dirichlet && L.wall[2 * d + side] != 1.0)
          extrapolate_ghost_face(v, d, side, static_cast<T>(dirichlet_ghost_factor(L.wall[2 * d + side])));
  }

  // The level's operator evaluator, handed to fn with the conductivity view when there is one.
  template <class Fn>
  void with_op(int l, Fn&& fn) {
    auto& L = lv_[static_cast<std::size_t>(l)];
    if (variable_) {
      fn(multigrid_detail::variable_k<T, Rank>{L.c.shift, L.c.beta, L.c.inv_h2}, L.k);
    } else {
      fn(multigrid_detail::constant_star<T, Rank>{diagonal(L), L.c.w});
    }
  }

  void remove_mean(view& v, level& L, double mean) {
    add_scaled(v, static_cast<T>(-mean), L.ones);
  }

  /// r_l = g_l - A u_l (ghosts of u_l filled); returns max |r_l| when asked (a reduction).
  double residual(int l, bool measure = true) {
    auto& L = lv_[static_cast<std::size_t>(l)];
    fill(l, L.u);
    with_op(l, [&](auto op, const auto&... k) {
      apply(policy_, multigrid_detail::residual_sweep<T, decltype(op)>{op}, inputs(L.u, L.g, k...), L.r);
    });
    return measure ? norm_max(L.r) : 0.0;
  }

  // The backend's own kernels (tessera/cuda/detail/multigrid_kernels.hpp: cuda::automatic), found
  // by argument-dependent lookup on the policy, used where fused_ says (the constructor
  // decides): a red-black
  // step in one pass, the residual's norm without writing r, residual and restriction in
  // one pass, the prolongation, and the coarsest level's CG in one launch; none of them
  // reads a ghost (the walls are star_level's face rules), so no fill precedes them.
  static constexpr bool has_fused_kernels =
      requires(const Policy& p, view_accessor<const T, Rank> a, view_accessor<T, Rank> b, star_level<T, Rank> s,
               coarsening_modes<Rank> m) {
        red_black_step_in(p, a, a, b, s, T(), 0);
        { red_black_step_residual_in(p, a, a, b, s, T(), 0) } -> std::convertible_to<double>;
        { residual_max_in(p, a, a, s) } -> std::convertible_to<double>;
        residual_restrict_in(p, a, a, b, s, m);
        prolong_correction_in(p, a, b, s, m);
        { coarse_cg_in(p, b, a, b, b, b, s, 1.0, 1, false) } -> std::same_as<bool>;
        zero_interior_in(p, b);
      };

  // A recorder of launches (cycle_recording_for, found by argument-dependent lookup on the
  // policy: cuda::automatic's records a CUDA graph), or none.
  static constexpr bool has_cycle_recording = requires(const Policy& p) { cycle_recording_for(p).run([] {}); };
  struct no_recording {};
  static auto make_recording(const Policy& p) {
    if constexpr (has_cycle_recording) return cycle_recording_for(p);
    else return no_recording{};
  }

  /// Level l's operator and walls as the fused kernels take them (its current conditions:
  /// homogeneous below level 0, and on level 0 during a preconditioning cycle).
  star_level<T, Rank> fused_level(int l, bool homogeneous = false) const {
    const auto& L = lv_[static_cast<std::size_t>(l)];
    star_level<T, Rank> s;
    s.diag = diagonal(L);
    s.w = L.c.w;
    for (int f = 0; f < 2 * Rank; ++f) {
      const auto& face = L.bc.faces[f];
      if (face.kind == boundary_kind::neumann) {
        s.a[f] = T(1), s.b[f] = T(0);
      } else if (L.wall[f] != 1.0) {  // a homogeneous wall between grid points
        s.a[f] = static_cast<T>(dirichlet_ghost_factor(L.wall[f])), s.b[f] = T(0);
      } else {
        s.a[f] = T(0), s.b[f] = homogeneous ? T(0) : static_cast<T>(face.value);
      }
    }
    return s;
  }

  /// One red-black step on level l by the fused kernel (u -> t, swapped); false where it
  /// does not apply (the caller takes the two colour sweeps).
  bool fused_step(int l, T sor, int first_parity) {
    if constexpr (has_fused_kernels) {
      if (!fused_) return false;
      auto& L = lv_[static_cast<std::size_t>(l)];
      const view_accessor<const T, Rank> u = L.u.accessor(), g = L.g.accessor();
      red_black_step_in(policy_, u, g, L.t.accessor(), fused_level(l), sor, first_parity);
      std::swap(L.u, L.t);
      return true;
    } else {
      (void)l, (void)sor, (void)first_parity;
      return false;
    }
  }

  /// max |g_l - A u_l|: fused, or r_l = g_l - A u_l written and reduced.
  double residual_norm(int l) {
    if constexpr (has_fused_kernels) {
      if (fused_) {
        auto& L = lv_[static_cast<std::size_t>(l)];
        const view_accessor<const T, Rank> u = L.u.accessor(), g = L.g.accessor();
        return residual_max_in(policy_, u, g, fused_level(l));
      }
    }
    return residual(l, true);
  }

  /// The residual norm solve() checks before each cycle. Where a cycle may follow
  /// (cycle_may_follow) and it starts with a fused red-black step on level 0, that step takes
  /// the norm of its input on the way (no pass of its own over u and g): its output waits in
  /// t (step_pending_) for the cycle's first smoothing step, and a solve that stops on the
  /// norm drops it, keeping u. Where no cycle can follow, the norm alone costs less.
  double cycle_norm(bool cycle_may_follow) {
    if constexpr (has_fused_kernels) {
      if (cycle_may_follow && fused_ && !symmetric_ && opt_.smoother == mg_smoother::red_black_gauss_seidel && opt_.pre_smooth > 0 &&
          levels() > 1) {
        auto& L = lv_[0];
        const view_accessor<const T, Rank> u = L.u.accessor(), g = L.g.accessor();
        double r = 0;
        timed(0, [&] {  // level 0's step (the norm is not timed elsewhere either)
          r = red_black_step_residual_in(policy_, u, g, L.t.accessor(), fused_level(0), gauss_seidel_weight(), 0);
        });
        step_pending_ = true;
        return r;
      }
    }
    return residual_norm(0);
  }

  /// g_{l+1} = R (g_l - A u_l): fused, or through r_l.
  void restrict_residual(int l) {
    auto& L = lv_[static_cast<std::size_t>(l)];
    auto& C = lv_[static_cast<std::size_t>(l + 1)];
    if constexpr (has_fused_kernels) {
      if (fused_ && !symmetric_) {  // the adjoint restriction reads r's ghosts
        const view_accessor<const T, Rank> u = L.u.accessor(), g = L.g.accessor();
        residual_restrict_in(policy_, u, g, C.g.accessor(), fused_level(l), L.down);
        return;
      }
    }
    residual(l, false);
    if (symmetric_) fill(l, L.r, true);  // the adjoint restriction reads across the faces
    restrict_full_weighting(L.r, C.g, L.down, symmetric_);
  }

  static T diagonal(const level& L) {
    T diag = L.c.shift;
    for (int d = 0; d < Rank; ++d) diag += T(2) * L.c.w[d];
    return diag;
  }

  void set_zero(level& L) {
    if constexpr (has_fused_kernels) {
      if (fused_) {
        zero_interior_in(policy_, L.u.accessor());
        return;
      }
    }
    apply(policy_, multigrid_detail::combine_sweep<T>{T(0), T(0), T(0)}, inputs(L.g, L.g), L.u);
  }

  T gauss_seidel_weight() const {
    return static_cast<T>(opt_.gauss_seidel_weight > 0 ? opt_.gauss_seidel_weight
                          : Rank == 3                  ? 1.2
                          : Rank == 2                  ? 1.15
                                                       : 1.0);
  }

  /// `steps` smoothing steps on level l. As a solver, red-black takes red first before and
  /// after the coarse correction (the reverse order after it converges more slowly per
  /// cycle). As cg's preconditioner the cycle must be symmetric, so the smoothing after the
  /// correction is the adjoint of the one before: colours reversed (with a same-order cycle
  /// cg can stall, as it did on a conductivity jump).
  void smooth(int l, int steps, bool after = false) {
    auto& L = lv_[static_cast<std::size_t>(l)];
    const T omega = static_cast<T>(opt_.jacobi_weight > 0 ? opt_.jacobi_weight
                                   : Rank == 1             ? 2.0 / 3.0
                                   : Rank == 2             ? 0.8
                                                           : 6.0 / 7.0);
    // Chebyshev on [lmax / 8, lmax] of D^-1 A, lmax = 2: theta the centre, delta the half width
    const double lmax = 2.0, lmin = lmax / 8, theta = (lmax + lmin) / 2, delta = (lmax - lmin) / 2, s1 = theta / delta;
    double rho_old = 1 / s1;
    const T sor = gauss_seidel_weight();
    for (int s = 0; s < steps; ++s) {
      if (opt_.smoother == mg_smoother::red_black_gauss_seidel) {
        if (l == 0 && s == 0 && step_pending_) {  // the step cycle_norm took
          std::swap(L.u, L.t);
          step_pending_ = false;
          continue;
        }
        const bool reverse = after && symmetric_;
        if (fused_step(l, sor, reverse ? 1 : 0)) continue;
        for (const T colour : {reverse ? T(0) : T(1), reverse ? T(1) : T(0)}) {
          fill(l, L.u);
          with_op(l, [&](auto op, const auto&... k) {
            apply(policy_, multigrid_detail::colour_sweep<T, decltype(op)>{op, colour, sor}, inputs(L.u, L.g, L.mask, k...),
                  L.t);
          });
          std::swap(L.u, L.t);
        }
      } else if (opt_.smoother == mg_smoother::jacobi) {
        fill(l, L.u);
        with_op(l, [&](auto op, const auto&... k) {
          apply(policy_, multigrid_detail::jacobi_sweep<T, decltype(op)>{op, omega}, inputs(L.u, L.g, k...), L.t);
        });
        std::swap(L.u, L.t);
      } else {
        T c1 = 0, c2 = static_cast<T>(1 / theta);
        if (s > 0) {
          const double rho = 1 / (2 * s1 - rho_old);
          c1 = static_cast<T>(rho * rho_old);
          c2 = static_cast<T>(2 * rho / delta);
          rho_old = rho;
        }
        fill(l, L.u);
        with_op(l, [&](auto op, const auto&... k) {
          apply(policy_, multigrid_detail::chebyshev_sweep<T, decltype(op)>{op, c1, c2}, inputs(L.u, L.g, L.p, k...),
                outputs(L.t, L.q));
        });
        std::swap(L.u, L.t);
        std::swap(L.p, L.q);
      }
    }
  }

  // The coarsest level's dot products: the hand-written block reduction, which keeps its
  // result slot, where Thrust allocates and frees scratch each call (on a GPU the coarse
  // solve is a chain of small reductions, each waited for).
  static constexpr reduction_method coarse_reduction = reduction_method::block_atomic;

  /// Conjugate gradients on the coarsest level, from the u it holds (0 below level 0, the
  /// current iterate when level 0 is the only one): the residual reduced by 1e-3 below level
  /// 0, by 1e-10 (float 1e-5) when level 0 is the coarsest.
  void coarse_solve(int l) {
    auto& L = lv_[static_cast<std::size_t>(l)];
    // Below level 0 a cycle needs the coarse answer only to well within its own convergence
    // factor: 1e-3 saves most of the iterations, each of which waits on two dot products
    // (on a GPU, most of the coarsest level's time). Level 0 alone is the whole solve.
    const double rtol = l > 0 ? 1e-3 : sizeof(T) == 4 ? 1e-5 : 1e-10;
    if constexpr (has_fused_kernels) {
      // a small coarsest level in one launch below level 0 (level 0 alone is the whole
      // solve, which keeps the host's CG)
      const view_accessor<const T, Rank> g = L.g.accessor();
      if (fused_ && l > 0 &&
          coarse_cg_in(policy_, L.u.accessor(), g, L.r.accessor(), L.p.accessor(), L.q.accessor(), fused_level(l),
                       rtol, opt_.coarse_max_iterations, singular_)) {
        coarse_in_one_launch_ = true;
        return;
      }
    }
    residual(l, false);  // r = g - A u, projected where singular
    if (singular_) remove_mean(L.r, L, dot(L.r, L.ones, coarse_reduction) / static_cast<double>(L.n.size()));
    apply(policy_, multigrid_detail::combine_sweep<T>{T(1), T(0), T(0)}, inputs(L.r, L.r), L.p);
    double rr = dot(L.r, L.r, coarse_reduction);
    const double stop = rr * rtol * rtol;
    for (int it = 0; it < opt_.coarse_max_iterations && rr > stop && rr > 0; ++it) {
      fill(l, L.p, true);  // a direction: homogeneous walls on every level
      with_op(l, [&](auto op, const auto&... k) {
        apply(policy_, multigrid_detail::operator_sweep<T, decltype(op)>{op}, inputs(L.p, k...), L.q);
      });
      const double pq = dot(L.p, L.q, coarse_reduction);
      if (!(pq > 0)) break;  // exhausted (a singular direction, or rounding at the floor)
      const double alpha = rr / pq;
      add_scaled(L.u, static_cast<T>(alpha), L.p);
      add_scaled(L.r, static_cast<T>(-alpha), L.q);
      const double rr_new = dot(L.r, L.r, coarse_reduction);
      apply(policy_, multigrid_detail::combine_sweep<T>{T(1), static_cast<T>(rr_new / rr), T(0)}, inputs(L.r, L.p),
            L.t);
      std::swap(L.p, L.t);
      rr = rr_new;
    }
  }

  /// u_l += P u_{l+1} after the coarse correction.
  void correct_from_coarser(int l) {
    auto& L = lv_[static_cast<std::size_t>(l)];
    auto& C = lv_[static_cast<std::size_t>(l + 1)];
    if constexpr (has_fused_kernels) {
      if (fused_) {
        const view_accessor<const T, Rank> c = C.u.accessor();
        prolong_correction_in(policy_, c, L.u.accessor(), fused_level(l + 1, true), L.down);
        return;
      }
    }
    fill(l + 1, C.u);
    prolong_add(C.u, L.u, L.down);
  }

  /// Whether cycle(l, kind) is recorded and replayed: the graph level, a V-cycle (or an
  /// F-cycle's V part) as a solver, on the policy's own kernels only (red-black steps, a
  /// coarsest level solved in one launch: seen on an earlier cycle), each level's views back
  /// where they started after it (an even number of steps), no level timing (it waits).
  bool recorded_cycle(int l, mg_cycle kind) const {
    return has_cycle_recording && fused_ && l == graph_level_ && kind == mg_cycle::v && !symmetric_ &&
           !opt_.time_levels && opt_.smoother == mg_smoother::red_black_gauss_seidel &&
           (opt_.pre_smooth + opt_.post_smooth) % 2 == 0 && coarse_in_one_launch_;
  }

  void cycle(int l, mg_cycle kind) {
    if constexpr (has_cycle_recording) {
      if (recorded_cycle(l, kind)) {
        recording_.run([&] { cycle_levels(l, kind); });
        return;
      }
    }
    cycle_levels(l, kind);
  }

  void cycle_levels(int l, mg_cycle kind) {
    const int last = levels() - 1;
    if (l == last) {  // below level 0 the caller set u = 0
      timed(l, [&] { coarse_solve(l); });
      return;
    }
    auto& C = lv_[static_cast<std::size_t>(l + 1)];
    timed(l, [&] {
      smooth(l, opt_.pre_smooth);
      restrict_residual(l);
      set_zero(C);
    });
    detail::coarser_cycles(l, last, kind, [&](int c, mg_cycle k) { cycle(c, k); });
    timed(l, [&] {
      correct_from_coarser(l);
      smooth(l, opt_.post_smooth, true);
    });
  }

  /// Runs f, adding its time to level l's share when opt.time_levels asks (the space
  /// synchronised before and after, so that a GPU's queued work is counted where it ran).
  template <class F>
  void timed(int l, F&& f) {
    if (!opt_.time_levels) return f();
    if (level_seconds_.size() < lv_.size()) level_seconds_.resize(lv_.size(), 0.0);
    detail::run_timed<Space>(level_seconds_[static_cast<std::size_t>(l)], f);
  }

  /// Full multigrid: level 1's right-hand side is the restricted residual of u, each coarser
  /// level's the restriction of the one above; the coarsest level is solved, and each finer
  /// one below level 0 starts from the prolonged coarse answer (a correction: homogeneous
  /// walls) and takes one cycle. Level 0 adds the prolonged correction to u and takes one
  /// cycle on its own equation: by linearity the cycle on the error equation A e = f - A u
  /// from e = P e_1 followed by u += e, without level 0's passes over e and r (on a GPU the
  /// residual, a zero fill and the final sum were a sixth of the pass).
  void full_multigrid_pass() {
    const int last = levels() - 1;
    if (last == 0) {  // one level: its solve is the whole pass
      coarse_solve(0);
      return;
    }
    restrict_residual(0);
    for (int l = 1; l < last; ++l)
      restrict_full_weighting(lv_[static_cast<std::size_t>(l)].g, lv_[static_cast<std::size_t>(l + 1)].g,
                              lv_[static_cast<std::size_t>(l)].down);
    set_zero(lv_[static_cast<std::size_t>(last)]);
    coarse_solve(last);
    for (int l = last - 1; l >= 1; --l) {
      set_zero(lv_[static_cast<std::size_t>(l)]);
      correct_from_coarser(l);  // e_l = P e_{l+1} (e_l was 0)
      cycle(l, opt_.cycle);
    }
    correct_from_coarser(0);  // u += P e_1
    cycle(0, opt_.cycle);
  }

  Policy policy_;
  multigrid_options opt_;
  boundary_conditions<Rank> bc_;
  bool variable_ = false;
  bool singular_ = false;
  bool fused_ = false;  // the levels run on the policy's own kernels (see has_fused_kernels)
  bool step_pending_ = false;  // level 0's first smoothing step is in t (cycle_norm)
  bool coarse_in_one_launch_ = false;  // the coarsest level's solve was one launch
  int graph_level_ = -1;  // the first level below 0 of at most graph_below_points (-1: none)
  std::vector<level> lv_;
  std::vector<double> level_seconds_;
  decltype(make_recording(std::declval<const Policy&>())) recording_ = make_recording(policy_);
  // precondition(): a symmetric cycle (the smoothing after the correction the adjoint of the
  // one before, restriction the adjoint of prolongation)
  bool symmetric_ = false;
};

/// Solves A u = f by multigrid cycles from the initial guess u (see multigrid_solver).
template <execution_policy Policy, class T, int Rank, class Space>
multigrid_result multigrid_solve(const Policy& policy, const elliptic_operator<T, Rank, Space>& op,
                                 const View<T, Rank, Space>& f, const View<T, Rank, Space>& u,
                                 const std::type_identity_t<boundary_conditions<Rank>>& bc,
                                 const multigrid_options& opt = {}) {
  detail::require_allocated(f, "tessera::multigrid_solve", "right-hand side f");
  multigrid_solver<Policy, T, Rank, Space> mg(policy, op, f.extents(), bc, opt);
  return mg.solve(f, u);
}

}  // namespace tessera
