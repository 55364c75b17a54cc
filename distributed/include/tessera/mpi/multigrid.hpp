#pragma once
// mpi::multigrid_solver: geometric multigrid for A u = f (algorithms/elliptic_operator.hpp)
// over a Cartesian decomposition, each rank smoothing, restricting and prolonging its own
// block of every level with the policy the caller chose, the coarse levels gathered onto
// every process (agglomeration) and solved there by the one-process solver.
//
//   mpi::multigrid_solver mg(policy, op, f.domain(), bc, opt);   // levels built once
//   auto r = mg.solve(f, u);                                     // distributed views
//
// - Distributed levels. A level coarsens by vertex (coarse point I on fine point 2I + 1)
//   along every axis whose blocks all start at an even global point: each block's coarse
//   points are then those on its own odd fine points, at local 2i + 1, and the one-process
//   transfers and point functions run on each block unchanged (cartesian_domain::
//   coarsened_by_vertex). Restriction reads the fine residual's ghost on a block's high
//   side and prolongation the coarse correction's on its low side: both are exchanged
//   first, as every smoothing half-step exchanges u's halos.
// - Agglomeration. Below opt.agglomerate_points global points, or where the next level
//   cannot coarsen so (an even extent, a block starting at an odd point, coarse blocks of
//   fewer than 2 points), the level's right-hand side is gathered onto every process
//   (MPI_Allgatherv) and solved there by tessera::multigrid_solver on host::serial to a
//   residual reduced by opt.coarse_reduction (every process computes the same answer and
//   keeps its block: no scatter), as AMReX and hypre gather coarse levels onto fewer
//   processes. A problem small enough to agglomerate on its finest level is solved whole
//   on every process, to the caller's tolerance.
// - What is distributed: constant-coefficient operators (poisson_operator,
//   helmholtz_operator), Dirichlet conditions on every face (a wall on the ghost stays on
//   the ghost under vertex coarsening), red-black Gauss-Seidel or weighted Jacobi, V, W or
//   F cycles. Anything else is refused by name (solve it on one process).
// - Stopping rules, residuals and reports are multigrid_solver's (max norm, all-reduced).
//   opt.time_levels splits the time: each level's work, the halo exchanges (inside it) and
//   the agglomerated solve (gather included).
// - Space: HostSpace here (halos through fill_halos); device views with
//   tessera/mpi/device_multigrid.hpp, which adds the device halos (device_exchange).
#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tessera/algorithms/apply_point_function.hpp"
#include "tessera/algorithms/multigrid.hpp"  // its sweeps (multigrid_detail) and the one-process solver
#include "tessera/algorithms/reduce.hpp"
#include "tessera/core/deep_copy.hpp"
#include "tessera/core/errors.hpp"
#include "tessera/core/fields.hpp"
#include "tessera/core/grid_transfer.hpp"
#include "tessera/host/host.hpp"
#include "tessera/mpi/gather.hpp"
#include "tessera/mpi/halo_exchange.hpp"
#include "tessera/mpi/reduce.hpp"
#include "tessera/mpi/transport.hpp"

namespace tessera::mpi {

/// The halo fill of one level's views: fill_halos for host views (this header); device
/// views' is device_multigrid.hpp's (a device_exchange a level).
template <class T, int Rank, class Space>
struct level_halos;

template <class T, int Rank>
struct level_halos<T, Rank, HostSpace> {
  level_halos(const distributed_view<T, Rank, HostSpace>&, transport) {}
  void fill(const distributed_view<T, Rank, HostSpace>& u, const boundary_conditions<Rank>& bc) { fill_halos(u, bc); }
};

struct multigrid_options : tessera::multigrid_options {
  /// Gather a level onto every process at or below this many global points (15^3 = 3375
  /// does, 31^3 does not: on GPUs a level of 31^3 costs less swept block by block than
  /// gathered and solved on the host).
  index_t agglomerate_points = 4096;
  /// The agglomerated level's solve stops when its residual is this fraction of where it started.
  double coarse_reduction = 1e-3;
};

struct multigrid_result : tessera::multigrid_result {
  int distributed_levels = 0;           // levels swept block by block (the rest are agglomerated)
  std::string agglomerated_extents;     // the level gathered onto every process
  int coarse_levels = 0;                // the one-process solver's levels below it
  double halo_seconds = 0;              // time_levels: in halo exchanges (part of level_seconds)
  double coarse_seconds = 0;            // time_levels: the agglomerated solves, gathers included
};

template <execution_policy Policy, class T, int Rank, class Space = HostSpace>
class multigrid_solver {
  static_assert(std::is_floating_point_v<T>, "tessera::mpi::multigrid_solver: float or double");
  using view = distributed_view<T, Rank, Space>;
  using host_view = View<T, Rank, HostSpace>;
  // the gathered level is small: one thread (OpenMP's fork and join on each of its
  // sweeps cost more than the sweep)
  using coarse_solver = tessera::multigrid_solver<host::serial, T, Rank, HostSpace>;

  struct level {
    cartesian_domain<Rank> dom;
    view u, g, r, t, mask;
    level_coefficients<T, Rank> c;
    boundary_conditions<Rank> bc;   // homogeneous below level 0
    coarsening_modes<Rank> down{};  // how each axis coarsens to the next level
    std::shared_ptr<level_halos<T, Rank, Space>> halos;
  };

 public:
  /// The solver for f's and u's domain `dom` (their blocks: the domain's local extents,
  /// ghost width >= 1). `halo_transport` chooses how device halos travel (ignored on host views).
  multigrid_solver(const Policy& policy, const elliptic_operator<T, Rank, Space>& op, const cartesian_domain<Rank>& dom,
                   const boundary_conditions<Rank>& bc, const multigrid_options& opt = {},
                   transport halo_transport = transport::host_staged)
      : policy_(policy), opt_(opt), bc_(bc), transport_(halo_transport) {
    const std::string who = "tessera::mpi::multigrid_solver(" + Policy::name() + ")";
    if (op.variable())
      throw unsupported_error(who + ": a variable conductivity (div_k_grad_operator) is solved on one process "
                                    "(tessera::multigrid_solve); the distributed solver takes constant stars");
    for (int f = 0; f < 2 * Rank; ++f) {
      if (bc.faces[f].kind != boundary_kind::dirichlet)
        throw unsupported_error(who + ": face " + std::to_string(f) + " is " + to_string(bc.faces[f].kind) +
                                "; the distributed solver coarsens by vertex, which keeps Dirichlet walls only "
                                "(solve Neumann and periodic problems on one process: tessera::multigrid_solve)");
      if (!std::isfinite(bc.faces[f].value))
        throw invalid_argument_error(who + ": the Dirichlet value of face " + std::to_string(f) + " is not finite");
    }
    if (opt.smoother == mg_smoother::chebyshev)
      throw unsupported_error(who + ": the Chebyshev smoother is not distributed; use red-black Gauss-Seidel or Jacobi");
    if (opt.full_multigrid)
      throw unsupported_error(who + ": full multigrid (full_multigrid) is not distributed; cycles from the initial guess");
    if (opt.pre_smooth < 0 || opt.post_smooth < 0 || opt.pre_smooth > 100 || opt.post_smooth > 100 ||
        opt.pre_smooth + opt.post_smooth == 0)
      throw invalid_argument_error(who + ": pre_smooth = " + std::to_string(opt.pre_smooth) + ", post_smooth = " +
                                   std::to_string(opt.post_smooth) + ": each 0 .. 100, not both 0");
    if (opt.max_cycles < 0) throw invalid_argument_error(who + ": max_cycles must be >= 0");
    if (!(opt.tol > 0) || !std::isfinite(opt.tol)) throw invalid_argument_error(who + ": tol must be a finite number > 0");
    if (!(opt.coarse_reduction > 0 && opt.coarse_reduction < 1))
      throw invalid_argument_error(who + ": coarse_reduction must be in (0, 1)");
    if (opt.agglomerate_points < 1) throw invalid_argument_error(who + ": agglomerate_points must be >= 1");
    const auto c0 = check_elliptic(op, who);
    build_levels(op, dom, c0, who);
  }

  int levels() const { return static_cast<int>(lv_.size()); }
  /// The level gathered onto every process (the last distributed one).
  int agglomerated_level() const { return levels() - 1; }
  const extents<Rank>& level_extents(int l) const { return lv_.at(static_cast<std::size_t>(l)).dom.global_extents(); }

  /// Cycles on A u = f from the initial guess u (ghost width >= 1; its ghosts are filled by bc).
  multigrid_result solve(const view& f, const view& u) {
    const std::string who = "tessera::mpi::multigrid_solver::solve(" + Policy::name() + ")";
    check_views(f, u, who);
    multigrid_result res;
    res.levels = levels() + coarse_->levels() - 1;
    res.distributed_levels = levels() - 1;
    res.coarse_levels = coarse_->levels();
    for (const auto& L : lv_) res.level_extents.push_back(L.dom.global_extents().to_string());
    for (int l = 1; l < coarse_->levels(); ++l) res.level_extents.push_back(coarse_->level_extents(l).to_string());
    res.agglomerated_extents = lv_.back().dom.global_extents().to_string();
    level_seconds_.assign(lv_.size(), 0.0);
    halo_seconds_ = coarse_seconds_ = 0;
    auto& L0 = lv_[0];
    if (levels() == 1) return solve_whole(f, u, res);
    L0.u = u;
    if (!(L0.t.local().layout() == u.local().layout())) L0.t = view("mgd_t0", u);
    // g = sigma f (the positive form)
    apply(policy_, multigrid_detail::combine_sweep<T>{L0.c.sigma, T(0), T(0)}, inputs(f.local(), f.local()), L0.g.local());
    res.rhs_max = norm_max(f);
    double r = residual(0, true);
    res.residuals.push_back(r);
    res.reference = std::max(res.rhs_max, r);
    const double target = opt_.tol * res.reference;
    r = tessera::detail::run_cycles(
        res, r, target, opt_.max_cycles, opt_.progress, [&] { cycle(0, opt_.cycle); },
        [&] { return residual(0, true); });
    if (L0.u.local().data() != u.local().data()) {  // an odd number of out-of-place sweeps
      deep_copy(u.local(), L0.u.local());
      std::swap(L0.u, L0.t);
    }
    L0.u = view();  // the solver keeps no handle on the caller's view
    fill_halos_timed(0, u, bc_);
    res.converged = r <= target;
    const double start = res.residuals.front();
    if (res.cycles > 0 && start > 0 && r > 0) res.convergence_factor = std::pow(r / start, 1.0 / res.cycles);
    res.precision_floor = tessera::detail::rounding_floor<T>(diagonal(L0), norm_max(u), res.rhs_max);
    finish(res, r);
    return res;
  }

 private:
  // ---- levels ----
  void build_levels(const elliptic_operator<T, Rank, Space>& op, const cartesian_domain<Rank>& dom,
                    level_coefficients<T, Rank> c, const std::string& who) {
    cartesian_domain<Rank> d = dom;
    for (int l = 0;; ++l) {
      level L;
      L.dom = d;
      L.c = c;
      L.bc = l == 0 ? bc_ : tessera::detail::homogeneous(bc_);
      lv_.push_back(L);
      const extents<Rank>& n = d.global_extents();
      if (n.size() <= opt_.agglomerate_points || l >= 40) break;
      // the axes coupled within a factor 2 of the strongest coarsen (as on one process)
      double strongest = 0;
      for (int a = 0; a < Rank; ++a) strongest = std::max(strongest, static_cast<double>(c.w[a]));
      std::array<bool, Rank> axes{};
      coarsening_modes<Rank> down{};
      bool any = false;
      for (int a = 0; a < Rank; ++a) {
        axes[a] = static_cast<double>(c.w[a]) >= 0.5 * strongest && n[a] >= 3;
        down[a] = axes[a] ? coarsening::vertex : coarsening::none;
        any = any || axes[a];
      }
      auto next = any ? d.coarsened_by_vertex(axes) : std::nullopt;
      if (!next) break;
      lv_.back().down = down;
      d = *next;
      for (int a = 0; a < Rank; ++a)  // the spacing doubles where an axis coarsens (elliptic_operator.hpp)
        if (axes[a]) c.w[a] /= T(4);
    }
    // a too large agglomerated level: refuse by name (gathering it would cost more than the solve)
    const auto& last = lv_.back().dom;
    const index_t cap = 64 * opt_.agglomerate_points;
    if (last.global_extents().size() > cap && last.size() > 1)
      throw unsupported_error(
          who + ": the grid " + lv_[0].dom.global_extents().to_string() + " on process grid " + lv_[0].dom.describe_grid() +
          " coarsens block by block only down to " + last.global_extents().to_string() +
          ", too large to gather onto every process: each distributed level halves by vertex, which needs an odd "
          "number of points along every axis (2^k m - 1, such as 1023) and every block starting at an even point "
          "(blocks of even size; e.g. 1023 on 2 or 4 processes an axis, not 3)");
    for (std::size_t l = 0; l < lv_.size(); ++l) {
      auto& L = lv_[l];
      const std::string tag = "mgd" + std::to_string(l) + "_";
      if (l > 0) L.u = view(tag + "u", L.dom, 1);
      L.g = view(tag + "g", L.dom, 1);
      L.r = view(tag + "r", L.dom, 1);
      L.t = view(tag + "t", L.dom, 1);
      if (opt_.smoother == mg_smoother::red_black_gauss_seidel) {
        // red: even global coordinate sums (the same points the one-process solver colours)
        distributed_view<T, Rank, HostSpace> m(tag + "mask_host", L.dom, 1);
        const auto a = m.local().accessor();
        const auto& e = L.dom.local_extents();
        for (index_t i = 0; i < e.size(); ++i) {
          index_t rest = i, parity = 0, off = 0;
          for (int k = Rank - 1; k >= 0; --k) {
            const index_t x = rest % e[k];
            rest /= e[k];
            parity += x + L.dom.offset()[static_cast<std::size_t>(k)];
            off += x * a.stride[k];
          }
          a.origin[off] = parity % 2 == 0 ? T(1) : T(0);
        }
        L.mask = view(tag + "mask", L.dom, 1);
        deep_copy(L.mask.local(), m.local());
      }
      L.halos = std::make_shared<level_halos<T, Rank, Space>>(L.g, transport_);
    }
    // the agglomerated level's one-process solver, alike on every process
    auto& A = lv_.back();
    elliptic_operator<T, Rank, HostSpace> cop;  // A' = shift + sum_a w_a (2 - S+ - S-), sigma = 1
    cop.a = A.c.shift;
    cop.b = T(-1);
    cop.centre = T(0);
    for (int a = 0; a < Rank; ++a) cop.neighbour[a] = -A.c.w[a], cop.centre += T(2) * A.c.w[a];
    tessera::multigrid_options co = opt_;
    co.progress = nullptr;
    co.time_levels = false;
    co.full_multigrid = false;
    if (levels() > 1) {
      co.tol = opt_.coarse_reduction;
      co.max_cycles = 50;
    } else {  // the whole problem, f as the caller gives it: the caller's operator
      cop.a = op.a;
      cop.b = op.b;
      cop.centre = op.centre;
      cop.neighbour = op.neighbour;
    }
    coarse_ = std::make_unique<coarse_solver>(host::serial{}, cop, A.dom.global_extents(), A.bc, co);
    coarse_f_ = host_view("mgd_coarse_f", A.dom.global_extents(), 1);
    coarse_u_ = host_view("mgd_coarse_u", coarse_f_.layout());
    if constexpr (!Space::host_accessible) block_host_ = distributed_view<T, Rank, HostSpace>("mgd_block_host", A.dom, 1);
  }

  static T diagonal(const level& L) {
    T diag = L.c.shift;
    for (int d = 0; d < Rank; ++d) diag += T(2) * L.c.w[d];
    return diag;
  }

  void check_views(const view& f, const view& u, const std::string& who) const {
    const auto& d0 = lv_[0].dom;
    for (const view* v : {&f, &u}) {
      tessera::detail::require_allocated(v->local(), who, v == &f ? "right-hand side f" : "solution u");
      if (v->domain().comm() != d0.comm() || !(v->local().extents() == d0.local_extents()) ||
          !(v->global_extents() == d0.global_extents()))
        throw extent_mismatch_error(who + ": " + v->local().describe() + " is not this rank's block " +
                                    d0.local_extents().to_string() + " of the solver's domain " +
                                    d0.global_extents().to_string() + " (process grid " + d0.describe_grid() + ")");
    }
    if (u.ghost() < 1)
      throw invalid_argument_error(who + ": u " + u.local().describe() +
                                   " has no ghost layer; the solver reads one (allocate u with ghost 1)");
    if (f.local().data() == u.local().data()) throw aliasing_error(who + ": f and u are the same view (" + u.local().describe() + ")");
    // every rank refuses together: the counts are all-reduced
    double bad = static_cast<double>(find_nonfinite(f.local()).count + find_nonfinite(u.local()).count);
    bad = detail::allreduce(d0, bad, MPI_SUM);
    if (bad > 0)
      throw invalid_argument_error(who + ": f or the initial guess u holds " + std::to_string(static_cast<long long>(bad)) +
                                   " NaN or infinite value(s) over all processes");
  }

  // ---- the pieces of a cycle ----
  template <class F>
  void timed(double& acc, F&& f) {
    if (!opt_.time_levels) return f();
    tessera::detail::run_timed<Space>(acc, f);
  }

  void fill_halos_timed(int l, const view& v, const boundary_conditions<Rank>& bc) {
    timed(halo_seconds_, [&] { lv_[static_cast<std::size_t>(l)].halos->fill(v, bc); });
  }
  void fill(int l, const view& v, bool homogeneous = false) {
    const auto& L = lv_[static_cast<std::size_t>(l)];
    fill_halos_timed(l, v, homogeneous ? tessera::detail::homogeneous(L.bc) : L.bc);
  }

  multigrid_detail::constant_star<T, Rank> op_of(int l) const {
    const auto& L = lv_[static_cast<std::size_t>(l)];
    return {diagonal(L), L.c.w};
  }

  /// r_l = g_l - A u_l (u's halos filled); max |r_l| over every process when asked.
  double residual(int l, bool measure) {
    auto& L = lv_[static_cast<std::size_t>(l)];
    fill(l, L.u);
    const auto op = op_of(l);
    apply(policy_, multigrid_detail::residual_sweep<T, decltype(op)>{op}, inputs(L.u.local(), L.g.local()), L.r.local());
    return measure ? norm_max(L.r) : 0.0;
  }

  T gauss_seidel_weight() const {
    return static_cast<T>(opt_.gauss_seidel_weight > 0 ? opt_.gauss_seidel_weight : Rank == 3 ? 1.2 : Rank == 2 ? 1.15 : 1.0);
  }

  void smooth(int l, int steps) {
    auto& L = lv_[static_cast<std::size_t>(l)];
    const auto op = op_of(l);
    const T omega = static_cast<T>(opt_.jacobi_weight > 0 ? opt_.jacobi_weight : Rank == 1 ? 2.0 / 3.0 : Rank == 2 ? 0.8 : 6.0 / 7.0);
    for (int s = 0; s < steps; ++s) {
      if (opt_.smoother == mg_smoother::red_black_gauss_seidel) {
        for (const T colour : {T(1), T(0)}) {
          fill(l, L.u);
          apply(policy_, multigrid_detail::colour_sweep<T, decltype(op)>{op, colour, gauss_seidel_weight()},
                inputs(L.u.local(), L.g.local(), L.mask.local()), L.t.local());
          std::swap(L.u, L.t);
        }
      } else {
        fill(l, L.u);
        apply(policy_, multigrid_detail::jacobi_sweep<T, decltype(op)>{op, omega}, inputs(L.u.local(), L.g.local()),
              L.t.local());
        std::swap(L.u, L.t);
      }
    }
  }

  /// u_l = 0 (its g is finite: 0 g + 0 g).
  void set_zero(level& L) {
    apply(policy_, multigrid_detail::combine_sweep<T>{T(0), T(0), T(0)}, inputs(L.g.local(), L.g.local()), L.u.local());
  }

  /// The agglomerated level: its g gathered onto every process, solved there from 0, each
  /// process keeping its block of the answer in u.
  void agglomerated_solve(int l) {
    auto& L = lv_[static_cast<std::size_t>(l)];
    timed(coarse_seconds_, [&] {
      const host_view global = gather_everywhere(L.g);
      deep_copy(coarse_f_, global);
      apply(host::serial{}, multigrid_detail::combine_sweep<T>{T(0), T(0), T(0)}, inputs(coarse_f_, coarse_f_), coarse_u_);
      coarse_->solve(coarse_f_, coarse_u_);
      keep_block(coarse_u_, L.u);  // this process' block of the answer
    });
  }

  /// A host copy's block for device view v: the one kept for the agglomerated level where
  /// it fits, else a new one.
  distributed_view<T, Rank, HostSpace> host_block_like(const view& v) {
    if (block_host_.local().allocated() && block_host_.ghost() == v.ghost() &&
        block_host_.global_extents() == v.global_extents() && block_host_.local().layout() == v.local().layout())
      return block_host_;
    return distributed_view<T, Rank, HostSpace>("mgd_block_host", v.domain(), v.ghost());
  }

  /// u's interior = its block of the global host view g.
  void keep_block(const host_view& g, const view& u) {
    if constexpr (Space::host_accessible) {
      scatter_from(g, u);
    } else {
      const auto h = host_block_like(u);
      scatter_from(g, h);
      deep_copy(u.local(), h.local());
    }
  }

  /// The global interior of v on every process.
  host_view gather_everywhere(const view& v) {
    if constexpr (Space::host_accessible) {
      return all_gather(v);
    } else {
      const auto h = host_block_like(v);
      deep_copy(h.local(), v.local());
      return all_gather(h);
    }
  }

  void cycle(int l, mg_cycle kind) {
    const int last = levels() - 1;
    if (l == last) {
      agglomerated_solve(l);
      return;
    }
    auto& L = lv_[static_cast<std::size_t>(l)];
    auto& C = lv_[static_cast<std::size_t>(l + 1)];
    timed(level_seconds_[static_cast<std::size_t>(l)], [&] {
      smooth(l, opt_.pre_smooth);
      residual(l, false);
      fill(l, L.r, true);  // restriction reads a block's high-side ghost (the next block's first point)
      const view_accessor<const T, Rank> r = L.r.local().accessor();
      restrict_in(Space{}, r, C.g.local().accessor(), L.down, false);
      set_zero(C);
    });
    tessera::detail::coarser_cycles(l, last, kind, [&](int c, mg_cycle k) { cycle(c, k); });
    timed(level_seconds_[static_cast<std::size_t>(l)], [&] {
      fill(l + 1, C.u, true);  // prolongation reads a block's low-side ghost (the previous block's last point)
      const view_accessor<const T, Rank> c = C.u.local().accessor();
      prolong_add_in(Space{}, c, L.u.local().accessor(), L.down);
      smooth(l, opt_.post_smooth);
    });
  }

  /// A problem that agglomerates on its finest level: solved whole on every process.
  multigrid_result solve_whole(const view& f, const view& u, multigrid_result& res) {
    const auto& L = lv_[0];
    timed(coarse_seconds_, [&] {
      const host_view gf = gather_everywhere(f), gu = gather_everywhere(u);
      const auto r = coarse_->solve(gf, gu);
      static_cast<tessera::multigrid_result&>(res) = r;
      keep_block(gu, u);
    });
    fill_halos_timed(0, u, bc_);
    res.distributed_levels = 0;
    res.coarse_levels = coarse_->levels();
    res.agglomerated_extents = L.dom.global_extents().to_string();
    if (opt_.time_levels) res.coarse_seconds = coarse_seconds_, res.halo_seconds = halo_seconds_;
    return res;
  }

  void finish(multigrid_result& res, double r) {
    if (opt_.time_levels) {
      res.level_seconds = level_seconds_;
      res.halo_seconds = halo_seconds_;
      res.coarse_seconds = coarse_seconds_;
    }
    res.stop_reason = tessera::detail::multigrid_stop_reason(res, r, opt_.max_cycles, sizeof(T) == 4);
  }

  Policy policy_;
  multigrid_options opt_;
  boundary_conditions<Rank> bc_;
  transport transport_;
  std::vector<level> lv_;
  std::unique_ptr<coarse_solver> coarse_;
  host_view coarse_f_, coarse_u_;
  distributed_view<T, Rank, HostSpace> block_host_;  // device views: the agglomerated block's host copy
  std::vector<double> level_seconds_;
  double halo_seconds_ = 0, coarse_seconds_ = 0;
};

/// Solves A u = f over the distributed views' domain (see multigrid_solver).
template <execution_policy Policy, class T, int Rank, class Space>
multigrid_result multigrid_solve(const Policy& policy, const elliptic_operator<T, Rank, Space>& op,
                                 const distributed_view<T, Rank, Space>& f, const distributed_view<T, Rank, Space>& u,
                                 const std::type_identity_t<boundary_conditions<Rank>>& bc,
                                 const multigrid_options& opt = {}, transport halo_transport = transport::host_staged) {
  multigrid_solver<Policy, T, Rank, Space> mg(policy, op, f.domain(), bc, opt, halo_transport);
  return mg.solve(f, u);
}

}  // namespace tessera::mpi
