#pragma once
// cuda::automatic: runs the strategy measured fastest for this device and case.
//
//   1. The tuning table (tuning.hpp; backends/cuda/tuning/table.csv, written by
//      `tessera-bench --tuning-table` on a device of each class) names the fastest
//      candidate for (device class, shape class, rank, radius, precision), per measured
//      grid size; the rows of the nearest device class and, of those, the row of the
//      nearest size (in log2 of the points) apply. Any GPU finds rows for the built-in
//      stars and boxes the table measured: its own class's or its nearest sibling's.
//   2. A case no row has (a custom shape, a radius not benchmarked) takes the default rule:
//      the unit that declares automatic_default (candidates.hpp) where it has a kernel for
//      the shape, else the last resort (in 1D: the others need a marching axis).
//   3. With TESSERA_TUNE=1 in the environment, such a case is tuned on first use instead:
//      every candidate that can run it is launched once to warm up and three times timed
//      on scratch views of the caller's layout (the caller's output is never written by
//      the tuner) on the caller's stream, and the fastest is kept for the process, per
//      device, shape, precision and extents.
//   Whatever the choice, if it cannot run on the caller's views (some strategies need rows
//   aligned to 16 bytes, or a ring that fits the device's shared memory), the first of
//   automatic_fallbacks (the units' automatic_fallback order) that can runs instead.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "tessera/cuda/cuda_check.hpp"
#include "tessera/cuda/detail/dispatch.hpp"
#include "tessera/cuda/tuning.hpp"

namespace tessera::cuda {

namespace detail {

template <class S>
constexpr candidate default_rule() {
  if constexpr (automatic_default_strategy::template has_kernel<S>) return candidate_of<automatic_default_strategy>;
  else return automatic_fallbacks.back();
}

/// True when `policy` can run shape S on the views in, out on the current device: its
/// plan fits the extents and device, and the views meet its row requirement.
template <class S, class Policy, class T, int Rank, class Space>
bool runs_on(const Policy& policy, const View<T, Rank, Space>& in, const View<T, Rank, Space>& out) {
  return plan_for<S, T>(policy, in.extents()).ok() && view_requirement(policy, in, out).empty();
}

/// c if runs(policy of c), else the first of automatic_fallbacks for which it holds; the
/// last resort is not asked.
template <class F>
candidate first_that_runs(candidate c, F&& runs) {
  for (candidate next : automatic_fallbacks) {
    bool ok = false;
    with_candidate(c, [&](auto policy) { ok = runs(policy); });
    if (ok) break;
    c = next;
  }
  return c;
}

/// Times every candidate that can run this case on (in, out, stream); the fastest.
template <class S, class T, int Rank, class Space>
candidate tune_on_first_use(const stencil<S, T>& st, const View<T, Rank, Space>& in,
                            const View<T, Rank, Space>& out, cudaStream_t stream) {
  cudaEvent_t a{}, b{};
  TESSERA_CUDA_CHECK(cudaEventCreate(&a), "cuda::automatic tuner: event");
  TESSERA_CUDA_CHECK(cudaEventCreate(&b), "cuda::automatic tuner: event");
  candidate best = default_rule<S>();
  float best_ms = std::numeric_limits<float>::max();
  const View<T, Rank, Space> scratch(out.label() + "_tuning", out.layout());  // the caller's out is not written
  for (candidate c : all_candidates) {
    with_candidate(c, [&](auto policy) {
      if (!runs_on<S>(policy, in, scratch)) return;
      sweep(policy, st, in, scratch, stream);  // warm-up
      std::vector<float> t;
      for (int k = 0; k < 3; ++k) {
        cudaEventRecord(a, stream);
        sweep(policy, st, in, scratch, stream);
        cudaEventRecord(b, stream);
        TESSERA_CUDA_CHECK(cudaEventSynchronize(b), "cuda::automatic tuner: timing");
        float ms = 0;
        cudaEventElapsedTime(&ms, a, b);
        t.push_back(ms);
      }
      std::sort(t.begin(), t.end());
      if (t[1] < best_ms) best_ms = t[1], best = c;
    });
  }
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  return best;
}

}  // namespace detail

/// What cuda::automatic runs for shape S and type T on the device lim describes,
/// without timing anything: the table's entry, else the default rule.
template <class S, class T>
candidate table_choice(const device_limits& lim, double points) {
  if constexpr (S::rank == 1) {
    return automatic_fallbacks.back();
  } else {
    if (const auto c = lookup(builtin_tuning_table(), make_tuning_key<S, T>(class_of(lim), points))) return *c;
    return detail::default_rule<S>();
  }
}

/// The candidate cuda::automatic runs for this call: the table's, else the tuner's
/// (measured on these views once per process), else the default rule.
template <class S, class T, int Rank, class Space>
candidate choose(const stencil<S, T>& st, const View<T, Rank, Space>& in, const View<T, Rank, Space>& out,
                 cudaStream_t stream = nullptr) {
  if constexpr (S::rank == 1) {
    return automatic_fallbacks.back();
  } else {
    const device_limits& lim = current_device_limits();
    // Iterative solvers call this every sweep with the same case: remember the last
    // answer per thread (keyed by device and extents), so the table scan and the cache
    // key are built once per case, not once per sweep.
    struct last_choice {
      const device_limits* device = nullptr;
      extents<Rank> e{};
      candidate c{};
    };
    static thread_local last_choice last;
    if (last.device == &lim && last.e == in.extents()) return last.c;
    auto remember = [&](candidate c) {
      last = {&lim, in.extents(), c};
      return c;
    };
    if (const auto c = lookup(builtin_tuning_table(), make_tuning_key<S, T>(class_of(lim), double(in.size()))))
      return remember(*c);
    if (!tuning_enabled()) return detail::default_rule<S>();  // not remembered: the environment may change
    const std::string key = lim.name + "|" + shape_name<S>() + "|" + (sizeof(T) == 4 ? "float" : "double") +
                            "|" + in.extents().to_string();
    if (const auto c = tuning_cache_find(key)) return remember(*c);
    const candidate c = detail::tune_on_first_use(st, in, out, stream);
    tuning_cache_store(key, c);
    return remember(c);
  }
}

template <class S, class T, int Rank, class Space>
void sweep(const automatic&, const stencil<S, T>& st, const View<T, Rank, Space>& in,
           const View<T, Rank, Space>& out, cudaStream_t stream = nullptr) {
  // The choice may not run on these views (the table and the default rule know the case,
  // not the views' rows or this device's shared memory): then the next candidate that
  // can, in automatic_fallbacks' order.
  const candidate c = detail::first_that_runs(choose(st, in, out, stream),
                                              [&](auto policy) { return detail::runs_on<S>(policy, in, out); });
  with_candidate(c, [&](auto policy) {
    if constexpr (has_kernel_v<decltype(policy), S>) sweep(policy, st, in, out, stream);
  });
}

/// The customisation point tessera::automatic reaches for CudaSpace views.
template <class S, class T, int Rank>
void sweep_automatically(CudaSpace, const stencil<S, T>& st, const View<T, Rank, CudaSpace>& in,
                         const View<T, Rank, CudaSpace>& out, cudaStream_t stream = nullptr) {
  sweep(automatic{}, st, in, out, stream);
}

/// The plan cuda::automatic runs from the table alone (see table_choice), on views built
/// from extents: the table's choice, or the first of automatic_fallbacks that can run.
template <class S, class T>
launch_plan make_plan(const automatic&, const extents<S::rank>& e, const device_limits& lim) {
  const candidate c = detail::first_that_runs(table_choice<S, T>(lim, double(e.size())),
                                              [&](auto policy) { return make_plan<S, T>(policy, e, lim).ok(); });
  launch_plan p;
  with_candidate(c, [&](auto policy) { p = make_plan<S, T>(policy, e, lim); });
  return p;
}

}  // namespace tessera::cuda
