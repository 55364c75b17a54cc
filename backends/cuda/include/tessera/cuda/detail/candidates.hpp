#pragma once
// cuda::automatic's candidates: the listed strategies (strategies.hpp) that declare
// `automatic_candidate = true`, in the list's order. The tuning table names them by their
// policies' names; a new strategy joins by saying so in its own header. So do automatic's
// roles (strategy.hpp): the default for cases no table row knows, the default for point
// functions and the point functions another strategy claims, the fallbacks in order, and
// the strategies of fused passes (the fusion table names one a row); each is derived here
// from the traits the units declare, so no other file names a strategy for them.
#include <array>
#include <cstddef>
#include <string>
#include <type_traits>

#include "tessera/cuda/strategies.hpp"

namespace tessera::cuda {

namespace detail {
template <class P>
struct is_automatic_candidate : std::bool_constant<P::automatic_candidate> {};

// A strategy's roles in cuda::automatic (strategy.hpp); a unit that declares none has none.
// (A nested requirement on a member the unit lacks is false, not an error.)
template <class P>
struct is_automatic_default : std::bool_constant<requires { requires P::automatic_default; }> {};
template <class P>
struct is_automatic_point_default : std::bool_constant<requires { requires P::automatic_point_default; }> {};
template <class P>
struct is_automatic_fuser : std::bool_constant<requires { requires P::automatic_fuses; }> {};
template <class P>
constexpr int automatic_fallback_of() {
  if constexpr (requires { P::automatic_fallback; }) return P::automatic_fallback;
  else return 0;
}

/// The one strategy of List (a role's holders): a role held by none or by several is a
/// mistake in the units' traits.
template <class List>
struct the_one {
  static_assert(List::size == 1, "tessera::cuda: exactly one listed strategy must declare each of cuda::automatic's "
                                 "roles (automatic_default, automatic_point_default; strategy.hpp)");
  using type = type_at_t<0, List>;
};
}  // namespace detail

/// The strategies cuda::automatic chooses among (each compiled for every built-in shape
/// with its default tiles).
using automatic_candidates = filter_types_t<detail::is_automatic_candidate, strategies>;

/// What cuda::automatic runs for a stencil no tuning-table row knows, where it has a kernel
/// for the shape (else the last resort).
using automatic_default_strategy =
    typename detail::the_one<filter_types_t<detail::is_automatic_default, strategies>>::type;
/// What cuda::automatic runs for point functions in 2D and 3D (the last resort in 1D).
using automatic_point_default_strategy =
    typename detail::the_one<filter_types_t<detail::is_automatic_point_default, strategies>>::type;
namespace detail {
template <class P, class F, class T, int Rank>
inline constexpr bool claims_points = requires { requires P::template automatic_points_for<F, T, Rank>; };
template <class P>
constexpr std::size_t automatic_points_from_of() {
  if constexpr (requires { P::automatic_points_from; }) return P::automatic_points_from;
  else return 0;
}
template <class P>
constexpr std::size_t automatic_points_below_of() {
  if constexpr (requires { P::automatic_points_below; }) return P::automatic_points_below;
  else return static_cast<std::size_t>(-1);
}
// (a function, so that a bound of 0 is not a comparison the compiler calls pointless)
constexpr bool within(std::size_t v, std::size_t from, std::size_t below) { return v >= from && v < below; }
/// cuda::automatic's point-function lowering in 2D and 3D (policy.hpp): a tag whose
/// sweep_points (cuda/detail/point_function_sweep.hpp) runs the first strategy that claims
/// the function at the grid's size (automatic_point_claim), else the point default.
struct automatic_points {};
}  // namespace detail

/// Whether strategy P claims point function F for cuda::automatic on a grid of `cells`
/// points: its unit claims F (automatic_points_for: where it measured faster than the
/// point default) and the size lies in [automatic_points_from, automatic_points_below)
/// (each optional: any size). The first listed strategy that claims F at a size runs it
/// there; where none does, or the claimant refuses the caller's views, the point default.
template <class P, class F, class T, int Rank>
constexpr bool automatic_point_claim(std::size_t cells) {
  if constexpr (detail::claims_points<P, F, T, Rank>)
    return detail::within(cells, detail::automatic_points_from_of<P>(), detail::automatic_points_below_of<P>());
  else
    return false;
}

namespace detail {
/// A fusing strategy's policies for cuda::automatic: its default tiles first, then the
/// other tiles its unit offers the fusion table (automatic_fusion_tiles, strategy.hpp).
template <class P>
struct fusing_policies_of {
  using type = type_list<P>;
};
template <class P>
  requires requires { typename P::automatic_fusion_tiles; }
struct fusing_policies_of<P> {
  using type = concat_types_t<type_list<P>, typename P::automatic_fusion_tiles>;
};
template <class List>
struct fusing_policies;
template <class... Ps>
struct fusing_policies<type_list<Ps...>> {
  using type = concat_types_t<typename fusing_policies_of<Ps>::type...>;
};
}  // namespace detail

/// The policies cuda::automatic may run iterate's fused passes with (sweep_steps.hpp): each
/// listed strategy that declares automatic_fuses, in the list's order, with its default
/// tiles and then each of its automatic_fusion_tiles. A fusion-table row names one by its
/// policy and tile columns (fusion.csv).
using automatic_fusers = typename detail::fusing_policies<filter_types_t<detail::is_automatic_fuser, strategies>>::type;
static_assert(automatic_fusers::size > 0, "tessera::cuda: cuda::automatic needs a strategy of fused passes: a "
                                          "listed strategy that declares automatic_fuses (strategy.hpp)");
/// The fuser of a fusion-table row that names none: the first listed.
using automatic_fusing_strategy = type_at_t<0, automatic_fusers>;

/// True for a fuser that is its strategy with default tiles (not one of its
/// automatic_fusion_tiles).
template <class P>
inline constexpr bool default_tiles_v = std::is_same_v<P, typename P::strategy>;

/// The fusion table's name of fuser P's tile: empty for a strategy's default tiles, else
/// the policy's tile_name() ("64x32").
template <class P>
std::string fusion_tile_name() {
  if constexpr (default_tiles_v<P>) return {};
  else return P::tile_name();
}

/// Whether cuda::automatic may fuse shape S in T with fuser P: its default tiles serve every
/// shape; another tile only the shapes and types its policy says (automatic_fuses_tile),
/// the ones tessera_cuda compiles its kernels for (kernels/instantiate.cu.in).
template <class P, class S, class T>
inline constexpr bool fuser_serves_v = [] {
  if constexpr (default_tiles_v<P>) return true;
  else return P::template automatic_fuses_tile<S, T>;
}();

/// Calls f with the policy value of automatic_fusers' i-th fuser.
template <class F>
void with_fuser(std::size_t i, F&& f) {
  visit_type_at(automatic_fusers{}, i, f);
}

/// One of cuda::automatic's candidates: its position in automatic_candidates.
class candidate {
 public:
  constexpr candidate() = default;
  constexpr explicit candidate(std::size_t index) : index_(index) {}
  constexpr std::size_t index() const { return index_; }
  friend constexpr bool operator==(candidate, candidate) = default;

 private:
  std::size_t index_ = 0;
};

/// The candidate of a policy (any tile parameters) of a listed candidate strategy.
template <class Policy>
inline constexpr candidate candidate_of = [] {
  constexpr std::size_t i = list_index_v<typename Policy::strategy, automatic_candidates>;
  static_assert(i < automatic_candidates::size, "tessera::cuda::candidate_of: not one of cuda::automatic's candidates");
  return candidate(i);
}();

/// Every candidate, in the list's order.
inline constexpr auto all_candidates = [] {
  std::array<candidate, automatic_candidates::size> a{};
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = candidate(i);
  return a;
}();

namespace detail {
template <class... Ts>
constexpr std::array<int, sizeof...(Ts)> fallback_orders(type_list<Ts...>) {
  return {automatic_fallback_of<Ts>()...};
}
inline constexpr auto candidate_fallback_orders = fallback_orders(automatic_candidates{});
inline constexpr std::size_t fallback_count = [] {
  std::size_t n = 0;
  for (int o : candidate_fallback_orders) n += o > 0;
  return n;
}();
static_assert(fallback_count > 0, "tessera::cuda: cuda::automatic needs a last resort: a candidate strategy that "
                                  "declares automatic_fallback (strategy.hpp)");
}  // namespace detail

/// The candidates cuda::automatic tries, in this order, when its choice cannot run on the
/// caller's views (the units' automatic_fallback: 1, 2, ...); the last is the last resort,
/// which needs no marching axis and no row alignment.
inline constexpr auto automatic_fallbacks = [] {
  std::array<candidate, detail::fallback_count> a{};
  std::size_t n = 0;
  for (int order = 1; n < a.size(); ++order)
    for (std::size_t i = 0; i < detail::candidate_fallback_orders.size(); ++i)
      if (detail::candidate_fallback_orders[i] == order) a[n++] = candidate(i);
  return a;
}();

/// The last resort as a type: the policy (default tiles) of automatic_fallbacks.back().
using automatic_last_resort_strategy = type_at_t<automatic_fallbacks.back().index(), automatic_candidates>;

/// Calls f with the policy value (default tiles) of candidate c.
template <class F>
void with_candidate(candidate c, F&& f) {
  visit_type_at(automatic_candidates{}, c.index(), f);
}

}  // namespace tessera::cuda
