#pragma once
// Point functions through the Kokkos reference: each input field is staged into its own
// Kokkos view with the halo its reach names, the function runs in a Kokkos::MDRangePolicy
// functor whose windows point into those Kokkos views (address and strides from Kokkos,
// no tessera layout on the way), and the outputs' interiors are copied back. What it
// shares with the other backends is the user's function and the window's two-line
// offset arithmetic (which tests/algorithms/test_point_function.cpp checks against
// direct loops): cross-validation against it checks how every other backend lowers the
// function (its staging, loops, strides and stores).
#include <Kokkos_Core.hpp>

#include <array>
#include <cstddef>
#include <utility>

#include "tessera/core/fields.hpp"
#include "tessera/core/point_function.hpp"
#include "tessera/core/detail/static_for.hpp"
#include "tessera/kokkos/mdrange.hpp"

namespace tessera::kokkos {
namespace detail {

/// Every Kokkos view here is constructed from a staged view, never default-constructed
/// and then assigned: with GCC 12 and Kokkos 4.6 (the mdspan-based View), destroying a
/// default-constructed Kokkos::View dereferences a null allocation record (a segfault
/// in SharedAllocationRecord::decrement; CI runs the point-function suites against that
/// Kokkos, .ci/run).
template <class F, class T, int Rank, std::size_t NI, std::size_t NO>
struct point_functor {
  using KV = typename kview<T, staged_rank<Rank>>::type;
  F fn;
  KV in[NI];
  KV out[NO];
  int g_in[NI];

  template <std::size_t... I, std::size_t... J>
  point_functor(const F& f, const std::array<KV, NI>& staged_in, const std::array<KV, NO>& staged_out,
                std::index_sequence<I...>, std::index_sequence<J...>)
      : fn(f), in{staged_in[I]...}, out{staged_out[J]...}, g_in{F::reach_type::radius[I]...} {}

  /// The window on staged input I at (z, y, x): its element's address in the Kokkos view
  /// and the view's own strides (LayoutRight: the last axis contiguous).
  template <std::size_t I>
  KOKKOS_INLINE_FUNCTION field_window<T, Rank, F::reach_type::radius[I], static_cast<int>(I)> window(int z, int y,
                                                                                                   int x) const {
    const int g = g_in[I];
    window_strides<Rank> s{};
    if constexpr (Rank == 1) {
      return {&in[I](0, g + x), s};
    } else if constexpr (Rank == 2) {
      s[0] = static_cast<index_t>(in[I].stride_0());
      return {&in[I](g + y, g + x), s};
    } else {
      s[0] = static_cast<index_t>(in[I].stride_0());
      s[1] = static_cast<index_t>(in[I].stride_1());
      return {&in[I](g + z, g + y, g + x), s};
    }
  }
  template <std::size_t... I>
  KOKKOS_INLINE_FUNCTION auto call(int z, int y, int x, std::index_sequence<I...>) const {
    return fn(window<I>(z, y, x)...);
  }
  KOKKOS_INLINE_FUNCTION void at(int z, int y, int x) const {
    const auto r = call(z, y, x, std::make_index_sequence<NI>{});
    using result = std::remove_cvref_t<decltype(r)>;
    static_assert(tessera::detail::result_count<result>::value == static_cast<int>(NO),
                  "tessera::apply: the point function returns a different number of values than the output views "
                  "given (return T for one output, tessera::array<T, M> for outputs(v1, ..., vM))");
    tessera::detail::static_for<static_cast<int>(NO)>([&](auto j) {
      const T v = static_cast<T>(tessera::detail::result_at<decltype(j)::value>(r));
      if constexpr (Rank == 1)
        out[j](0, x) = v;
      else if constexpr (Rank == 2)
        out[j](y, x) = v;
      else
        out[j](z, y, x) = v;
    });
  }
  KOKKOS_INLINE_FUNCTION void operator()(const int y, const int x) const
    requires(Rank <= 2)
  {
    at(0, y, x);
  }
  KOKKOS_INLINE_FUNCTION void operator()(const int z, const int y, const int x) const
    requires(Rank == 3)
  {
    at(z, y, x);
  }
};

}  // namespace detail

template <point_function_type F, class T, int Rank, class Space, std::size_t NI, std::size_t NO>
void sweep(const mdrange& p, const F& fn, const input_fields<T, Rank, Space, NI>& in,
           const output_fields<T, Rank, Space, NO>& out) {
  ensure_initialized();
  const std::lock_guard<std::mutex> one_at_a_time(detail::dispatch_mutex());
  using functor = detail::point_functor<F, T, Rank, NI, NO>;
  using KV = typename functor::KV;
  const auto& n = in[0].extents();
  // Inputs: interior plus the halo the function reads of that field. Outputs: interior
  // only (halo 0), copied back into the tessera views' interiors.
  const functor f = [&]<std::size_t... I, std::size_t... J>(std::index_sequence<I...> is, std::index_sequence<J...> js) {
    return functor(fn, std::array<KV, NI>{detail::stage_input<KV>(in[I], F::reach_type::radius[I])...},
                   std::array<KV, NO>{detail::make_kview<KV>(out[J].label() + "_kokkos_out", n, 0)...}, is, js);
  }(std::make_index_sequence<NI>{}, std::make_index_sequence<NO>{});

  detail::parallel_for_interior<Rank>("tessera::kokkos::point_function", p, n, f);

  for (std::size_t j = 0; j < NO; ++j) detail::copy_interior_back(f.out[j], 0, out[j]);
}

}  // namespace tessera::kokkos
