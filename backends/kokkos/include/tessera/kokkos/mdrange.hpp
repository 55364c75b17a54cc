#pragma once
// kokkos::mdrange: the independent reference path. It copies the tessera input into a
// Kokkos view in Kokkos' default memory space, runs the sweep with Kokkos::MDRangePolicy
// (a 1D grid as one row of a 2D range) on Kokkos' default execution space, and copies
// the interior back. It shares no loop or indexing code with the other
// backends: offsets and coefficients are copied into the functor and walked at run time.
//
// Kokkos is initialised on first use if the program has not done it, and finalised at
// exit; a program that manages Kokkos itself keeps control.
#include <Kokkos_Core.hpp>

#include <array>
#include <cstdlib>
#include <mutex>
#include <string>

#include "tessera/core/builtin_shapes.hpp"
#include "tessera/core/deep_copy.hpp"
#include "tessera/core/errors.hpp"
#include "tessera/core/policy.hpp"
#include "tessera/core/stencil.hpp"
#include "tessera/core/view.hpp"

namespace tessera::kokkos {

/// tile: MDRangePolicy tile sizes per axis (slowest first); 0 everywhere lets Kokkos
/// choose. Reaches every memory space: non-host views are staged through the host.
struct mdrange {
  std::array<int, 3> tile{0, 0, 0};
  static std::string name() { return "kokkos:mdrange"; }
  template <class Space>
  static constexpr bool reaches = true;
};

/// Initialises Kokkos if nobody has; registers finalisation at exit in that case. Once per
/// process, whichever thread asks first (threads making their first kokkos::mdrange call
/// at once crashed in Kokkos::initialize, 3 runs in 40): the others wait for it.
inline void ensure_initialized() {
  static std::once_flag once;
  std::call_once(once, [] {
    if (!Kokkos::is_initialized()) {
      Kokkos::initialize();
      std::atexit([] {
        if (Kokkos::is_initialized()) Kokkos::finalize();
      });
    }
  });
  if (!Kokkos::is_initialized())
    throw backend_error("tessera::kokkos::mdrange: Kokkos is not initialised (it was finalised, or the program's "
                        "own initialisation has not run yet); the reference needs a live Kokkos");
}

namespace detail {
/// Held by every reference sweep from staging to copy-back: Kokkos' default execution
/// space instance takes its dispatches from one host thread at a time, and the reference
/// may be called from several (validation in a threaded program).
inline std::mutex& dispatch_mutex() {
  static std::mutex m;
  return m;
}
}  // namespace detail

/// Name of the execution space the reference runs on ("Serial", "Cuda", "OpenMP", ...).
inline std::string execution_space_name() { return Kokkos::DefaultExecutionSpace::name(); }

/// True when the reference runs where host code can read its memory (Serial, OpenMP,
/// Threads). Its sums then follow the host sweeps' order without FMA contraction, and
/// host results agree with it to the last bits; on a GPU they agree to rounding only.
inline constexpr bool reference_runs_on_host() {
  return Kokkos::SpaceAccessibility<Kokkos::HostSpace, Kokkos::DefaultExecutionSpace::memory_space>::accessible;
}

namespace detail {

/// Grids of rank 1 are staged as one row of a rank-2 Kokkos view and swept with a rank-2
/// MDRangePolicy: every rank takes the same path, and no rank-1 View is ever written on
/// the device. Measured on an H100 with Kokkos develop (4.6.99) built for CUDA 13: a
/// kernel's stores through a rank-1 Kokkos::View never arrive (the view reads back 0 by
/// cudaMemcpy and by deep_copy, RangePolicy or MDRangePolicy alike), while rank-2 views
/// of one row work (perf/probes/kokkos_rank1_probe.cpp). MDRangePolicy has no rank 1.
template <int Rank>
inline constexpr int staged_rank = Rank < 2 ? 2 : Rank;

template <class T, int StagedRank>
struct kview;
template <class T>
struct kview<T, 2> {
  using type = Kokkos::View<T**, Kokkos::LayoutRight>;
};
template <class T>
struct kview<T, 3> {
  using type = Kokkos::View<T***, Kokkos::LayoutRight>;
};

/// The sweep functor: plain run-time loop over the points, offsets stored by value.
/// Kokkos views hold the interior plus a g-wide halo, index g is interior 0; a rank-1
/// grid is row 0 of a rank-2 view.
template <class T, int Rank, int N>
struct sweep_functor {
  typename kview<const T, staged_rank<Rank>>::type in;
  typename kview<T, staged_rank<Rank>>::type out;
  int off[N][3];
  T c[N];
  int g;

  KOKKOS_INLINE_FUNCTION void operator()(const int y, const int x) const
    requires(Rank <= 2)
  {
    T s = 0;
    if constexpr (Rank == 1) {
      for (int k = 0; k < N; ++k) s += c[k] * in(0, g + x + off[k][0]);
      out(0, g + x) = s;
    } else {
      for (int k = 0; k < N; ++k) s += c[k] * in(g + y + off[k][0], g + x + off[k][1]);
      out(g + y, g + x) = s;
    }
  }
  KOKKOS_INLINE_FUNCTION void operator()(const int z, const int y, const int x) const
    requires(Rank == 3)
  {
    T s = 0;
    for (int k = 0; k < N; ++k)
      s += c[k] * in(g + z + off[k][0], g + y + off[k][1], g + x + off[k][2]);
    out(g + z, g + y, g + x) = s;
  }
};

template <class KV, int Rank>
KV make_kview(const std::string& label, const extents<Rank>& n, int g) {
  if constexpr (Rank == 1)
    return KV(label, 1, n[0] + 2 * g);
  else if constexpr (Rank == 2)
    return KV(label, n[0] + 2 * g, n[1] + 2 * g);
  else
    return KV(label, n[0] + 2 * g, n[1] + 2 * g, n[2] + 2 * g);
}

/// The staged view's element of tessera point i (interior coordinates; row 0 in 1D).
template <class KV, class... I>
KOKKOS_INLINE_FUNCTION decltype(auto) staged(const KV& v, int g, I... i) {
  if constexpr (sizeof...(I) == 1)
    return v(0, (i + g)...);
  else
    return v((i + g)...);
}

/// Calls f(i...) for every point of [lo, hi) per axis, in row-major order (host only).
template <int Rank, class F>
void for_each_host(const array<index_t, Rank>& lo, const array<index_t, Rank>& hi, F&& f) {
  if constexpr (Rank == 1) {
    for (index_t x = lo[0]; x < hi[0]; ++x) f(x);
  } else if constexpr (Rank == 2) {
    for (index_t y = lo[0]; y < hi[0]; ++y)
      for (index_t x = lo[1]; x < hi[1]; ++x) f(y, x);
  } else {
    for (index_t z = lo[0]; z < hi[0]; ++z)
      for (index_t y = lo[1]; y < hi[1]; ++y)
        for (index_t x = lo[2]; x < hi[2]; ++x) f(z, y, x);
  }
}

/// Runs f over the interior [0, n) with Kokkos::MDRangePolicy (rank 1 as rows [0, 1) x
/// columns [0, n)), with the policy's tiles where it gives any, then fences.
template <int Rank, class F>
void parallel_for_interior(const char* label, const mdrange& p, const extents<Rank>& n, const F& f) {
  constexpr int SR = staged_rank<Rank>;
  using policy_t = Kokkos::MDRangePolicy<Kokkos::Rank<SR, Kokkos::Iterate::Right, Kokkos::Iterate::Right>>;
  typename policy_t::point_type begin{}, end{};
  typename policy_t::tile_type tile{};
  bool tiled = false;
  const int lead = SR - Rank;  // the extra leading axis of a rank-1 grid
  if (lead) end[0] = 1, tile[0] = 1;
  for (int d = 0; d < Rank; ++d) {
    end[lead + d] = n[d];
    tile[lead + d] = p.tile[d];
    tiled = tiled || p.tile[d] > 0;
  }
  if (tiled) {
    for (int d = 0; d < SR; ++d) tile[d] = tile[d] > 0 ? tile[d] : 1;
    Kokkos::parallel_for(label, policy_t(begin, end, tile), f);
  } else {
    Kokkos::parallel_for(label, policy_t(begin, end), f);
  }
  Kokkos::fence();
}

/// A Kokkos view of kind KV holding v's interior plus a g-wide halo copied from v's
/// ghosts: the reference's input (for stencils and, one per field, point functions).
template <class KV, class T, int Rank, class Space>
KV stage_input(const View<T, Rank, Space>& v, int g) {
  const auto host = create_mirror_copy(v);
  const auto a = host.accessor();
  const auto& n = v.extents();
  KV k = make_kview<KV>(v.label() + "_kokkos_in", n, g);
  auto kh = Kokkos::create_mirror_view(k);
  array<index_t, Rank> lo{}, hi{};
  for (int d = 0; d < Rank; ++d) {
    lo[d] = -g;
    hi[d] = n[d] + g;
  }
  for_each_host<Rank>(lo, hi, [&](auto... i) { staged(kh, g, i...) = a(i...); });
  Kokkos::deep_copy(k, kh);
  return k;
}

/// Copies the interior of staged view k (halo g) into v's interior; v's ghosts keep
/// whatever they held.
template <class KV, class T, int Rank, class Space>
void copy_interior_back(const KV& k, int g, const View<T, Rank, Space>& v) {
  auto kh = Kokkos::create_mirror_view(k);
  Kokkos::deep_copy(kh, k);
  auto host = create_mirror_copy(v);
  const auto b = host.accessor();
  array<index_t, Rank> zero{};
  for_each_host<Rank>(zero, v.extents().n, [&](auto... i) { b(i...) = staged(kh, g, i...); });
  if constexpr (!Space::host_accessible) deep_copy(v, host);
}

}  // namespace detail

template <class S, class T, int Rank, class Space>
void sweep(const mdrange& p, const stencil<S, T>& st, const View<T, Rank, Space>& in,
           const View<T, Rank, Space>& out) {
  ensure_initialized();
  const std::lock_guard<std::mutex> one_at_a_time(detail::dispatch_mutex());
  constexpr int N = stencil<S, T>::size;
  constexpr int SR = detail::staged_rank<Rank>;
  const auto& n = in.extents();
  constexpr int g = shape_traits<S>::radius;  // halo staged around the interior
  using KV = typename detail::kview<T, SR>::type;

  // Stage the input (interior plus the g-wide halo the shape reads) into Kokkos memory.
  const KV kin = detail::stage_input<KV>(in, g);
  KV kout = detail::make_kview<KV>(out.label() + "_kokkos_out", n, g);
  detail::sweep_functor<T, Rank, N> f{kin, kout, {}, {}, g};
  for (int k = 0; k < N; ++k) {
    for (int d = 0; d < 3; ++d) f.off[k][d] = d < Rank ? S::points[k][d] : 0;
    f.c[k] = st.coeffs[k];
  }
  detail::parallel_for_interior<Rank>("tessera::kokkos::mdrange", p, n, f);

  detail::copy_interior_back(kout, g, out);  // the output's ghosts keep whatever they held
}

}  // namespace tessera::kokkos

// The reference sweeps of the built-in shapes are compiled once, into the tessera_kokkos
// library (backends/kokkos/src/precompiled.cpp), not in every translation unit that
// validates them (each costs about 0.4 s of compile time): the tessera_kokkos target
// defines TESSERA_KOKKOS_PRECOMPILED, which turns on the explicit instantiation
// declarations below. Other shapes instantiate as usual.

/// PREFIX template void kokkos::sweep(mdrange, stencil, in, out) for element type T,
/// views in SPACE and shape __VA_ARGS__ (PREFIX: `extern` to declare, empty to define).
#define TESSERA_KOKKOS_SWEEP_INSTANCE(PREFIX, SPACE, T, ...)                                     \
  PREFIX template void tessera::kokkos::sweep<__VA_ARGS__, T, __VA_ARGS__::rank, tessera::SPACE>( \
      const tessera::kokkos::mdrange&, const tessera::stencil<__VA_ARGS__, T>&,                  \
      const tessera::View<T, __VA_ARGS__::rank, tessera::SPACE>&,                                \
      const tessera::View<T, __VA_ARGS__::rank, tessera::SPACE>&);
#if TESSERA_ENABLE_CUDA
// device views too: the reference stages them through the host (deep_copy)
#include "tessera/cuda/memory_space.hpp"
#define TESSERA_KOKKOS_SWEEPS(PREFIX, T, ...)                        \
  TESSERA_KOKKOS_SWEEP_INSTANCE(PREFIX, HostSpace, T, __VA_ARGS__) \
  TESSERA_KOKKOS_SWEEP_INSTANCE(PREFIX, CudaSpace, T, __VA_ARGS__)
#else
#define TESSERA_KOKKOS_SWEEPS(PREFIX, T, ...) TESSERA_KOKKOS_SWEEP_INSTANCE(PREFIX, HostSpace, T, __VA_ARGS__)
#endif
#if defined(TESSERA_KOKKOS_PRECOMPILED)
#define TESSERA_KOKKOS_EXTERN_SWEEPS(T, ...) TESSERA_KOKKOS_SWEEPS(extern, T, __VA_ARGS__)
TESSERA_FOR_EACH_BUILTIN_SHAPE(TESSERA_KOKKOS_EXTERN_SWEEPS, float)
TESSERA_FOR_EACH_BUILTIN_SHAPE(TESSERA_KOKKOS_EXTERN_SWEEPS, double)
#undef TESSERA_KOKKOS_EXTERN_SWEEPS
#endif
