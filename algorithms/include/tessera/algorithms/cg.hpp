#pragma once
// Conjugate gradients for A u = f (algorithms/elliptic_operator.hpp), preconditioned by one
// multigrid cycle (the default) or not at all, on the caller's policy: the operator and the
// cycle are multigrid_solver's point-function sweeps, the dot products reduce.hpp's.
//
//   tessera::cg_options opt;                      // preconditioner multigrid, tol 1e-10
//   auto r = tessera::cg_solve(policy, op, f, u, bc, opt);
//   // or, solving again and again on one grid: the levels and vectors built once
//   tessera::cg_solver cg(policy, op, f.extents(), bc, opt);
//   auto r1 = cg.solve(f1, u1), r2 = cg.solve(f2, u2);
//
// CG works on the positive form A' = sigma A and the correction e = u - u0 (homogeneous
// boundaries), so nonzero Dirichlet values enter once, through the initial residual. The
// residual is the recursively updated one, reported in the max norm after each iteration;
// the solve stops when it is at most tol * max(max |f|, initial residual), after
// max_iterations, or when p.Ap is no longer positive (the precision's floor). A multigrid
// preconditioned CG keeps its few iterations where a plain V-cycle slows down: a jump in the
// conductivity of div(k grad u), anisotropy, Neumann/Dirichlet mixtures.
#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "tessera/algorithms/multigrid.hpp"

namespace tessera {

enum class cg_preconditioner { none, multigrid };

struct cg_options {
  int max_iterations = 1000;
  double tol = 1e-10;
  cg_preconditioner preconditioner = cg_preconditioner::multigrid;
  multigrid_options multigrid{};  // the preconditioner's cycle (its tol and max_cycles are unused)
  std::function<void(int iteration, double residual)> progress;
};

struct cg_result {
  int iterations = 0;
  std::vector<double> residuals;  // max |f - A u|, before the first iteration and after each
  double reference = 0;
  double rhs_max = 0;
  double convergence_factor = 0;  // geometric mean reduction per iteration
  bool converged = false;
  std::string stop_reason;
  int levels = 0;  // of the multigrid preconditioner (1 without)
  bool singular = false;
};

/// CG with its preconditioner's levels and its vectors built once, for many solves on one
/// grid (a pressure projection every time step): the constructor checks the options and the
/// operator, builds the multigrid hierarchy and allocates the four work vectors; solve(f, u)
/// runs from the initial guess u.
template <execution_policy Policy, class T, int Rank, class Space>
class cg_solver {
  using view = View<T, Rank, Space>;

 public:
  cg_solver(const Policy& policy, const elliptic_operator<T, Rank, Space>& op, const extents<Rank>& interior,
            const boundary_conditions<Rank>& bc, const cg_options& opt = {})
      : policy_(policy), bc_(bc), opt_(checked(opt)), mg_(policy, op, interior, bc, preconditioner_options(opt)) {
    // rows padded as a view built from extents is: every policy serves them (cuda::pipelined
    // copies rows in 16-byte pieces), the kernels take their vector paths
    const layout<Rank> lay(interior, 1, default_row_alignment<T>);
    r_ = view("cg_r", lay), z_ = view("cg_z", lay), p_ = view("cg_p", lay), q_ = view("cg_q", lay);
  }

  int levels() const { return mg_.levels(); }
  bool singular() const { return mg_.singular(); }

  /// Solves A u = f from the initial guess u (ghost width >= 1; its ghosts are filled by bc).
  cg_result solve(const view& f, const view& u) {
    const std::string who = "tessera::cg_solver::solve(" + Policy::name() + ")";
    detail::require_allocated(f, who, "right-hand side f");
    mg_.check_arguments(f, u, who);
    view r = r_, z = z_, p = p_, q = q_;
    cg_result res;
    res.levels = mg_.levels();
    res.singular = mg_.singular();
    res.rhs_max = norm_max(f);
    mg_.check_compatible(f, who);
    double rmax = mg_.residual_into(f, u, r);
    mg_.project(r);
    if (mg_.singular()) rmax = norm_max(r);
    res.residuals.push_back(rmax);
    res.reference = std::max(res.rhs_max, rmax);
    const double target = opt_.tol * res.reference;
    const bool mg_pre = opt_.preconditioner == cg_preconditioner::multigrid;
    auto precondition = [&](const view& from, const view& to) {
      if (mg_pre)
        mg_.precondition(from, to);
      else
        apply(policy_, multigrid_detail::combine_sweep<T>{T(1), T(0), T(0)}, inputs(from, from), to);
    };
    bool exhausted = false;
    if (std::isfinite(rmax) && !(rmax <= target) && opt_.max_iterations > 0) {
      precondition(r, z);
      apply(policy_, multigrid_detail::combine_sweep<T>{T(1), T(0), T(0)}, inputs(z, z), p);
      double rz = dot(r, z);
      while (res.iterations < opt_.max_iterations) {
        mg_.apply_positive(p, q);
        const double pq = dot(p, q);
        if (!(pq > 0) || !(rz > 0)) {
          exhausted = true;
          break;
        }
        const double alpha = rz / pq;
        add_scaled(u, static_cast<T>(alpha), p);
        add_scaled(r, static_cast<T>(-alpha), q);
        ++res.iterations;
        rmax = norm_max(r);
        res.residuals.push_back(rmax);
        if (opt_.progress) opt_.progress(res.iterations, rmax);
        if (!std::isfinite(rmax) || rmax <= target) break;
        precondition(r, z);
        const double rz_new = dot(r, z);
        apply(policy_, multigrid_detail::combine_sweep<T>{T(1), static_cast<T>(rz_new / rz), T(0)}, inputs(z, p), q);
        std::swap(p, q);
        rz = rz_new;
      }
    }
    mg_.project(u);
    fill_ghosts(u, bc_);
    res.converged = rmax <= target;
    if (res.iterations > 0 && res.residuals.front() > 0 && rmax > 0)
      res.convergence_factor = std::pow(rmax / res.residuals.front(), 1.0 / res.iterations);
    if (!std::isfinite(rmax))
      res.stop_reason = "the residual is not finite (" + detail::sci(rmax) + ")";
    else if (res.converged)
      res.stop_reason = res.iterations == 0 ? "the initial guess already meets the tolerance"
                                            : "the residual reached tol x reference";
    else if (exhausted)
      res.stop_reason = "p.Ap or r.z stopped being positive (the precision's floor)";
    else
      res.stop_reason = "max_iterations (" + std::to_string(opt_.max_iterations) + ") reached";
    return res;
  }

 private:
  static const cg_options& checked(const cg_options& opt) {
    const std::string who = "tessera::cg_solver(" + Policy::name() + ")";
    if (opt.max_iterations < 0)
      throw invalid_argument_error(who + ": max_iterations = " + std::to_string(opt.max_iterations) + " is negative");
    if (!(opt.tol > 0) || !std::isfinite(opt.tol))
      throw invalid_argument_error(who + ": tol = " + detail::sci(opt.tol) + " must be a finite number > 0");
    return opt;
  }
  static multigrid_options preconditioner_options(const cg_options& opt) {
    multigrid_options mgo = opt.multigrid;
    if (opt.preconditioner != cg_preconditioner::multigrid)
      mgo.coarsest_points = std::numeric_limits<index_t>::max();  // one level: the operator only
    mgo.adjoint_coefficients = true;  // see multigrid_options: cg needs it across conductivity jumps
    return mgo;
  }

  Policy policy_;
  boundary_conditions<Rank> bc_;
  cg_options opt_;
  multigrid_solver<Policy, T, Rank, Space> mg_;
  view r_, z_, p_, q_;
};

/// Solves A u = f by CG from the initial guess u, building the preconditioner for this call
/// (cg_solver keeps it for the next).
template <execution_policy Policy, class T, int Rank, class Space>
cg_result cg_solve(const Policy& policy, const elliptic_operator<T, Rank, Space>& op, const View<T, Rank, Space>& f,
                   const View<T, Rank, Space>& u, const std::type_identity_t<boundary_conditions<Rank>>& bc,
                   const cg_options& opt = {}) {
  detail::require_allocated(f, "tessera::cg_solve(" + Policy::name() + ")", "right-hand side f");
  cg_solver<Policy, T, Rank, Space> cg(policy, op, f.extents(), bc, opt);
  return cg.solve(f, u);
}

}  // namespace tessera
