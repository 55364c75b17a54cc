#pragma once
// iterate(policy, stencil, u, scratch, steps, options): `steps` sweeps ping-ponging
// between u and scratch (sweep k reads one and writes the other). Before every sweep the
// input's ghost layer is filled by the boundary conditions, if any are given, and the
// result's ghosts are filled at the end, so the returned field is ready for the next
// step. Returns the view that holds the result: u after an even number of steps,
// scratch after an odd one.
//
// When every face is Dirichlet and the stencil reads no further than the wall (its reach
// is 1: ghosts_read_are_constant), the ghosts it reads hold constants and no sweep writes
// a ghost cell (apply's contract), so each of the two views is filled once, and again only
// after the callback has had the field (it may have written its ghosts): the per-step
// fills of a Dirichlet problem cost nothing. Where the field is handed out (the callback,
// the result) its ghosts are filled from it, the layers beyond a wall included.
//
// Policies whose backend fuses time steps (the customisation points fused_steps and
// sweep_steps, found by argument-dependent lookup on the policy, as apply finds sweep:
// cuda::temporal_blocking, and automatic where its fusion table says so;
// tessera/cuda/detail/sweep_steps.hpp) run several steps per pass, the
// boundary conditions applied inside the pass: then Dirichlet ghosts are filled once per
// view (and after a callback) where the stencil reads only the walls, before every pass
// where it reads beyond them (such passes fuse one step), and periodic and Neumann ghosts
// only where the field is handed out (to the callback, and at the end). The passes
// between two callbacks are split so that their number has the parity of the steps: the
// result lands in the same view as with one sweep per step.
//
// Where the views' space records steps as graphs (replay_steps, found by argument-dependent
// lookup on the space: CUDA graphs, tessera/cuda/detail/step_graph.hpp) and
// iterate_options::launch_graphs asks for them (or, left unset, the space's graphs_pay_off
// says they pay for the run), one sweep a step runs in blocks of graph_block_steps
// recorded once and launched together, after a first step launched alone (first-use
// tuning synchronises, which a capture refuses) and wherever two blocks or more are left
// before the next callback; the same kernels on the same views, so the same result bit
// for bit.
#include <algorithm>
#include <concepts>
#include <functional>
#include <optional>
#include <string>
#include <utility>

#include "tessera/algorithms/apply.hpp"
#include "tessera/algorithms/boundary_fill.hpp"

namespace tessera {

template <class T, int Rank, class Space>
struct iterate_options {
  /// Ghost fills before each sweep; none: the ghosts keep whatever they hold.
  std::optional<boundary_conditions<Rank>> boundary;
  /// Called after every `every`-th sweep (and never when every <= 0) with the number of
  /// sweeps done and the view holding the current field (ghosts filled if boundary set).
  int every = 0;
  std::function<void(int step, const View<T, Rank, Space>& current)> callback;
  /// Where the views' backend records steps as a graph (CUDA: replay_steps in
  /// tessera/cuda/detail/step_graph.hpp), run blocks of steps between callbacks that way: recorded
  /// once, launched together. The same kernels on the same views, so the same result bit
  /// for bit. true / false: always / never. Unset (the default): where the backend says
  /// they pay (CUDA: graphs_pay_off, runs of 512 steps or more between callbacks on grids
  /// whose sweep moves at most 24 MiB, such as fp32 128^3, where replaying beats launching:
  /// perf/RESULTS.md; a call records its graph once, which 100 steps do not pay back).
  std::optional<bool> launch_graphs;
};

namespace detail {

/// Steps a graph records at once (even: the two views are back in place after a block).
/// 16 steps are 16-64 kernels: one launch instead of those, where a step at 128^3 runs
/// for ~6 us and launching it costs about as much.
inline constexpr int graph_block_steps = 16;
/// A block of no steps: what iterate asks a space's replay_steps to accept.
struct record_nothing {
  template <class Stream>
  void operator()(Stream) const {}
};

}  // namespace detail

/// A policy whose backend fuses several steps of stencil st in one pass.
template <class Policy, class S, class T, int Rank, class Space>
concept fuses_steps = requires(const Policy& p, const stencil<S, T>& st, const View<T, Rank, Space>& v,
                               const std::optional<boundary_conditions<Rank>>& bc) {
  { fused_steps(p, st, v, bc) } -> std::convertible_to<int>;
  sweep_steps(p, st, v, v, 1, bc);
};

namespace detail {

/// True when the conditions have a Dirichlet face: the only ghosts a fused pass reads from
/// memory (it maps periodic and Neumann faces itself).
template <int Rank>
bool has_dirichlet_face(const std::optional<boundary_conditions<Rank>>& bc) {
  return bc && std::any_of(bc->faces.begin(), bc->faces.end(),
                           [](const boundary& f) { return f.kind == boundary_kind::dirichlet; });
}

/// Fills the ghosts of u or of scratch under bc before a sweep or pass reads them: once
/// per view where the ghosts it reads hold constants (Dirichlet walls, `constant`), which
/// no sweep writes, and again after forget() (a callback may have written them); every
/// time otherwise. handout() fills a view that leaves the loop (to a callback, or as the
/// result) whole, the layers beyond a wall included.
template <class T, int Rank, class Space>
class ghost_filler {
 public:
  ghost_filler(const View<T, Rank, Space>& u, const std::optional<boundary_conditions<Rank>>& bc, bool constant)
      : u_(u), bc_(bc), constant_(constant) {}
  template <class... Stream>
  void operator()(const View<T, Rank, Space>& v, Stream... stream) {
    if (!bc_) return;
    if (!constant_) return fill_ghosts(v, *bc_, stream...);
    bool& filled = v.data() == u_.data() ? u_filled_ : scratch_filled_;
    if (filled) return;
    fill_ghosts(v, *bc_, stream...);
    filled = true;
  }
  void handout(const View<T, Rank, Space>& v) {
    if (!bc_) return;
    if (constant_ && v.ghost() <= 1) return (*this)(v);  // the walls are the whole layer
    fill_ghosts(v, *bc_);
  }
  void forget() { u_filled_ = scratch_filled_ = false; }
  bool constant() const { return constant_; }

 private:
  const View<T, Rank, Space>& u_;
  const std::optional<boundary_conditions<Rank>>& bc_;
  bool constant_ = false;
  bool u_filled_ = false, scratch_filled_ = false;
};

/// `steps` steps of a policy that fuses up to `k` per pass (see the header comment).
template <class Policy, class S, class T, int Rank, class Space>
View<T, Rank, Space> iterate_fused(const Policy& policy, const stencil<S, T>& st, const View<T, Rank, Space>& u,
                                   const View<T, Rank, Space>& scratch, int steps,
                                   const iterate_options<T, Rank, Space>& opt, int k) {
  check_sweep_arguments(st, u, scratch, Policy::name());
  check_sweep_arguments(st, scratch, u, Policy::name());
  View<T, Rank, Space> cur = u, next = scratch;
  const bool reads_ghosts = has_dirichlet_face(opt.boundary);  // the only ghosts a pass reads
  ghost_filler<T, Rank, Space> fill(u, opt.boundary, !reads_beyond_dirichlet_wall(opt.boundary, shape_traits<S>::radius));
  const bool calls_back = opt.every > 0 && opt.callback;
  int done = 0;
  while (done < steps) {
    const int segment = calls_back ? std::min(steps - done, opt.every - done % opt.every) : steps - done;
    int passes = (segment + k - 1) / k;
    if ((segment - passes) % 2 != 0) ++passes;  // <= segment: k >= 2 leaves room, k = 1 matches
    for (int i = 0; i < passes; ++i) {
      if (reads_ghosts) fill(cur);
      if (cur.size() > 0)  // an empty interior has nothing to write (as apply)
        sweep_steps(policy, st, cur, next, segment / passes + (i < segment % passes ? 1 : 0), opt.boundary);
      std::swap(cur, next);
    }
    done += segment;
    if (calls_back && done % opt.every == 0 && done < steps) {
      if (opt.boundary) fill_ghosts(cur, *opt.boundary);
      opt.callback(done, cur);
      fill.forget();  // the callback may have written ghost cells
    }
  }
  if (opt.boundary) fill_ghosts(cur, *opt.boundary);
  if (calls_back && steps > 0 && steps % opt.every == 0) opt.callback(steps, cur);
  synchronize(Space{});
  return cur;
}

}  // namespace detail

template <execution_policy Policy, class S, class T, int Rank, class Space>
View<T, Rank, Space> iterate(const Policy& policy, const stencil<S, T>& st, const View<T, Rank, Space>& u,
                             const View<T, Rank, Space>& scratch, int steps,
                             const iterate_options<T, Rank, Space>& opt = {}) {
  detail::require_allocated(u, "tessera::iterate(" + Policy::name() + ")", "field u");
  detail::require_allocated(scratch, "tessera::iterate(" + Policy::name() + ")", "scratch view");
  if (steps < 0)
    throw invalid_argument_error("tessera::iterate: steps = " + std::to_string(steps) +
                                 " is negative; pass the number of sweeps to run (0 returns u)");
  detail::refuse_fixed_faces("tessera::iterate(" + Policy::name() + ") on " + u.describe(), opt.boundary);
  if constexpr (fuses_steps<Policy, S, T, Rank, Space>) {
    static_assert(policy_reaches_v<Policy, Space>,
                  "tessera::iterate: this policy cannot reach the views' memory space; pick a policy for that "
                  "space, tessera::automatic, or deep_copy to a mirror");
    const int k = fused_steps(policy, st, u, opt.boundary);  // 0: a sweep a step (automatic's answer)
    if (k >= 1) return detail::iterate_fused(policy, st, u, scratch, steps, opt, k);
  }
  View<T, Rank, Space> cur = u, next = scratch;
  detail::ghost_filler<T, Rank, Space> fill(u, opt.boundary,
                                            ghosts_read_are_constant(opt.boundary, shape_traits<S>::radius));
  // `stream...`: none, or the stream a step graph records on
  auto step = [&](auto... stream) {
    fill(cur, stream...);
    apply(policy, st, cur, next, stream...);
    std::swap(cur, next);
  };
  const bool calls_back = opt.every > 0 && opt.callback;
  bool try_graphs = opt.launch_graphs.value_or(true);  // false once a capture was refused
  // graphs for the run of `run` steps between callbacks: asked for, or where they pay
  const auto graphs_for = [&](long long run) {
    if (opt.launch_graphs) return *opt.launch_graphs;
    if constexpr (requires { graphs_pay_off(Space{}, std::size_t{}, 0LL); })
      return graphs_pay_off(Space{}, 2 * static_cast<std::size_t>(u.size()) * sizeof(T), run);
    else
      return false;
  };
  int k = 0;
  while (k < steps) {
    const int stop = calls_back ? std::min(steps, (k / opt.every + 1) * opt.every) : steps;
    while (k < stop) {
      // Blocks of steps as graphs, where the space records them (tessera/cuda/detail/step_graph.hpp)
      // and at least two blocks are left before the next callback. Never the first step:
      // first-use work (automatic's tuner, which synchronises) runs outside a capture.
      if constexpr (requires { replay_steps(Space{}, 1, detail::record_nothing{}); }) {
        if (try_graphs && k > 0 && stop - k >= 2 * detail::graph_block_steps && graphs_for(stop - k)) {
          if (fill.constant()) {  // filled before, not inside the graph
            fill(cur);
            fill(next);
          }
          const View<T, Rank, Space> first = cur, second = next;
          const int blocks = (stop - k) / detail::graph_block_steps;
          const bool ran = replay_steps(Space{}, blocks, [&](auto stream) {
            for (int i = 0; i < detail::graph_block_steps; ++i) step(stream);
          });
          cur = first, next = second;  // an even block leaves them so; a refused capture may not
          if (ran) {
            k += blocks * detail::graph_block_steps;
            continue;
          }
          try_graphs = false;  // refused once: the rest steps one by one
        }
      }
      step();
      ++k;
    }
    if (calls_back && k % opt.every == 0 && k < steps) {
      fill.handout(cur);
      opt.callback(k, cur);
      fill.forget();  // the callback may have written ghost cells
    }
  }
  fill.handout(cur);
  if (opt.every > 0 && opt.callback && steps > 0 && steps % opt.every == 0) opt.callback(steps, cur);
  synchronize(Space{});  // the space's backend: asynchronous errors surface here
  return cur;
}

}  // namespace tessera
