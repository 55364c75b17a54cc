#pragma once
// The solves of `tessera run --problem poisson2d | poisson3d` (run_poisson.hpp), one function
// template per policy and space: included by the units that instantiate them
// (run_poisson_host_<precision>_<rank>d.cpp: the host policies; run_poisson_cuda_<precision>_<rank>d.cpp:
// the CUDA policies), never by the run itself.
#include <vector>

#include "run_poisson.hpp"

namespace tessera::app {

template <class Policy, class Space, class T, int Rank>
poisson_solve solve_poisson(const poisson_problem<T, Rank>& problem, View<T, Rank, HostSpace>& out, bool show) {
  const run_options& o = problem.o;
  const auto& f_h = problem.f;
  const T h = problem.h;
  const auto& bc = problem.bc;
  const int n = o.size;
  const bool single = sizeof(T) == 4;
  const auto lap = fd::laplacian<Rank, 2>(h);
  const Policy policy{};
  View<T, Rank, Space> f("f", f_h.layout()), u("u", f_h.layout());
  deep_copy(f, f_h);
  poisson_solve s;
  const auto t0 = std::chrono::steady_clock::now();
  if (o.solver == "jacobi") {
    const double tol = o.tol ? *o.tol : poisson_default_tolerance(single, n);
    const int max_it = o.max_iterations.value_or(poisson_default_max_iterations);
    View<T, Rank, Space> scratch("scratch", f_h.layout());
    const progress_bar bar(show ? std::min(max_it, 100000) : 0, 2000);
    const auto r = jacobi_poisson(policy, f, u, scratch, h, bc, tol, max_it, 200, [&](int it, double resid) {
      char buf[48];
      std::snprintf(buf, sizeof buf, "residual %.2e", resid);
      bar.show(it, buf);
    });
    bar.clear();
    s.steps = r.iterations;
    s.residuals = {r.residual};
    s.reference = r.rhs_max;
    s.converged = r.converged;
    s.stop_reason = r.converged ? "the residual reached tol x max|f|" : "max-iterations reached";
    s.described = "Jacobi: " + std::to_string(r.iterations) + " iterations";
  } else if (o.solver == "cg") {
    cg_options c;
    c.tol = o.tol.value_or(1e-10);
    c.max_iterations = o.max_iterations.value_or(poisson_default_cg_iterations);
    c.multigrid = multigrid_options_of(o);
    const auto r = cg_solve(policy, poisson_operator<Space>(lap), f, u, bc, c);
    s.take(r);
    s.steps = r.iterations;
    s.described = "CG preconditioned by one multigrid " + to_string(c.multigrid.cycle) + "(" +
                  std::to_string(c.multigrid.pre_smooth) + "," + std::to_string(c.multigrid.post_smooth) + ") " +
                  to_string(c.multigrid.smoother) + " cycle, " + std::to_string(r.levels) + " levels: " +
                  std::to_string(r.iterations) + " iterations";
  } else {
    const auto m = multigrid_options_of(o);
    const auto r = multigrid_solve(policy, poisson_operator<Space>(lap), f, u, bc, m);
    s.take(r);
    s.steps = r.cycles;
    s.floor = r.precision_floor;
    s.described = std::string("multigrid ") + (m.full_multigrid ? "FMG + " : "") + to_string(m.cycle) + "(" +
                  std::to_string(m.pre_smooth) + "," + std::to_string(m.post_smooth) + ") " +
                  to_string(m.smoother) + ", " + std::to_string(r.levels) + " levels (" + r.level_extents.front() +
                  " .. " + r.level_extents.back() + "): " + std::to_string(r.cycles) + " cycles";
  }
  s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  deep_copy(out, u);
  return s;
}

/// The solves of each policy `for_each` passes, on `Space`, and of automatic there: a unit
/// keeps the list in a variable of its own, so each solve is compiled and kept for the run.
template <class Space, class T, int Rank, class ForEach>
std::vector<poisson_solve_fn<T, Rank>> poisson_solves(ForEach&& for_each) {
  std::vector<poisson_solve_fn<T, Rank>> fns;
  for_each([&](auto policy) { fns.push_back(&solve_poisson<decltype(policy), Space, T, Rank>); });
  fns.push_back(&solve_poisson<automatic, Space, T, Rank>);
  return fns;
}

}  // namespace tessera::app
