#pragma once
// multigrid_solve behind the Python module, written once for both memory spaces
// (solvers_host.cpp, solvers_cuda.cu instantiate it with their policies).
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include <tessera/algorithms/multigrid.hpp>

#include "sweeps.hpp"

namespace tessera::python {

/// What Python asks of a solve: the operator a u - b L u (L the stencil, a constant
/// radius-1 star, or div(k grad) with spacing h when k is given) and the options.
struct solve_request {
  double a = 0, b = -1;
  stencil_desc L;        // used when there is no k
  std::vector<double> h; // spacing per axis (div(k grad)), one value for every axis or one each
  std::string cycle = "V", smoother = "rbgs";
  int pre_smooth = 2, post_smooth = 2, max_cycles = 100;
  double tol = 1e-10;
  bool full_multigrid = false;
};

struct solve_report {
  int cycles = 0, levels = 0;
  bool converged = false, singular = false;
  std::string stop_reason;
  double convergence_factor = 0, precision_floor = 0, reference = 0;
  std::vector<double> residuals;
  std::vector<std::string> level_extents;
};

inline multigrid_options to_options(const solve_request& r) {
  multigrid_options o;
  if (r.cycle == "V") o.cycle = mg_cycle::v;
  else if (r.cycle == "W") o.cycle = mg_cycle::w;
  else if (r.cycle == "F") o.cycle = mg_cycle::f;
  else throw invalid_argument_error("tessera.multigrid_solve: cycle '" + r.cycle + "' is not V, W or F");
  if (r.smoother == "rbgs") o.smoother = mg_smoother::red_black_gauss_seidel;
  else if (r.smoother == "jacobi") o.smoother = mg_smoother::jacobi;
  else if (r.smoother == "chebyshev") o.smoother = mg_smoother::chebyshev;
  else
    throw invalid_argument_error("tessera.multigrid_solve: smoother '" + r.smoother +
                                 "' is not rbgs (red-black Gauss-Seidel), jacobi or chebyshev");
  o.pre_smooth = r.pre_smooth;
  o.post_smooth = r.post_smooth;
  o.max_cycles = r.max_cycles;
  o.tol = r.tol;
  o.full_multigrid = r.full_multigrid;
  return o;
}

/// multigrid_solve(policy named `name`, operator of `req`, f, u, bc of `b`), k optional.
/// `Only`: the one element type this instantiation solves (void: every type), so that a
/// memory space's solves can be compiled in one unit per element type; f of another type
/// is a logic error (the caller dispatches on f's element type first).
template <class Space, class Only = void, class ForEachPolicy>
solve_report multigrid_named(ForEachPolicy&& for_each_policy, const std::string& name, const solve_request& req,
                             const views_in<Space>& f, const views_in<Space>& u, const views_in<Space>* k,
                             const boundary_desc& b) {
  const std::string who = "tessera.multigrid_solve(" + name + ")";
  solve_report out;
  with_view_pair<Space>(f, u, who, [&](const auto& ff, const auto& uu) {
    using V = std::decay_t<decltype(ff)>;
    using T = typename V::value_type;
    constexpr int R = V::rank;
    if constexpr (!std::is_void_v<Only> && !std::is_same_v<T, Only>) {
      throw std::logic_error(who + ": " + ff.describe() + " reached the solver of another element type");
    } else {
      const auto bc = to_conditions<R>(b);
      if (!bc)
        throw invalid_argument_error(who + ": boundary conditions are needed (one kind for every face or one per "
                                     "face: 'dirichlet' or a value, 'neumann', 'periodic')");
      elliptic_operator<T, R, Space> op;
      if (k) {
        const V* kk = std::get_if<V>(k);
        if (!kk)
          throw extent_mismatch_error(who + ": the conductivity k and " + ff.describe() +
                                      " differ in element type or rank");
        array<T, R> h{};
        if (req.h.size() != 1 && req.h.size() != static_cast<std::size_t>(R))
          throw invalid_argument_error(who + ": h has " + std::to_string(req.h.size()) +
                                       " values; pass one spacing for every axis or one per axis (" +
                                       std::to_string(R) + ")");
        for (int d = 0; d < R; ++d)
          h[d] = static_cast<T>(req.h.size() == 1 ? req.h[0] : req.h[static_cast<std::size_t>(d)]);
        op = div_k_grad_operator(static_cast<T>(req.a), static_cast<T>(req.b), *kk, h);
      } else {
        check_rank<R>(req.L, who, ff.describe());
        if (req.L.kind != "star" || req.L.radius != 1)
          throw unsupported_error(who + ": L must be a radius-1 star (multigrid's operators are a u - b L u with L "
                                        "the 2*rank+1-point star, or div(k grad u)), not a " +
                                  req.L.kind + " of radius " + std::to_string(req.L.radius));
        op = helmholtz_operator<Space>(static_cast<T>(req.a), static_cast<T>(req.b),
                                       make_stencil<star<R, 1>, T>(star<R, 1>{}, req.L));
      }
      const auto opt = to_options(req);
      const bool found = with_named_policy(for_each_policy, name, [&](auto p) {
        const auto r = multigrid_solve(p, op, ff, uu, *bc, opt);
        out = {r.cycles, r.levels, r.converged, r.singular, r.stop_reason, r.convergence_factor,
               r.precision_floor, r.reference, r.residuals, r.level_extents};
      });
      if (!found) {
        std::string names;
        for_each_policy([&](auto p) { names += (names.empty() ? "" : ", ") + decltype(p)::name(); });
        throw invalid_argument_error(who + ": the Python module solves with " + names + " on " +
                                     (Space::host_accessible ? "host" : "device") +
                                     " arrays (every strategy is open to C++: tessera::multigrid_solve)");
      }
    }
  });
  return out;
}

solve_report multigrid_host(const std::string& policy, const solve_request& req, const views_in<HostSpace>& f,
                            const views_in<HostSpace>& u, const views_in<HostSpace>* k, const boundary_desc& b);
#if TESSERA_ENABLE_CUDA
solve_report multigrid_cuda(const std::string& policy, const solve_request& req, const views_in<CudaSpace>& f,
                            const views_in<CudaSpace>& u, const views_in<CudaSpace>* k, const boundary_desc& b);
/// multigrid_cuda for f of element type T: cuda::automatic and automatic. Each type is
/// instantiated in an nvcc unit of its own (solvers_cuda_float.cu, solvers_cuda_double.cu),
/// so that no unit compiles both types' kernels (the build keeps a unit under a minute).
template <class T>
solve_report multigrid_cuda_of(const std::string& policy, const solve_request& req, const views_in<CudaSpace>& f,
                               const views_in<CudaSpace>& u, const views_in<CudaSpace>* k, const boundary_desc& b) {
  return multigrid_named<CudaSpace, T>(
      [](auto&& fn) {
        fn(cuda::automatic{});
        fn(automatic{});
      },
      policy, req, f, u, k, b);
}
extern template solve_report multigrid_cuda_of<float>(const std::string&, const solve_request&,
                                                      const views_in<CudaSpace>&, const views_in<CudaSpace>&,
                                                      const views_in<CudaSpace>*, const boundary_desc&);
extern template solve_report multigrid_cuda_of<double>(const std::string&, const solve_request&,
                                                       const views_in<CudaSpace>&, const views_in<CudaSpace>&,
                                                       const views_in<CudaSpace>*, const boundary_desc&);
#endif

}  // namespace tessera::python
