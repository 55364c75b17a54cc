#pragma once
// cuda::automatic's candidates: the listed strategies (strategies.hpp) that declare
// `automatic_candidate = true`, in the list's order. The tuning table names them by their
// policies' names; a new strategy joins by saying so in its own header.
#include <array>
#include <cstddef>
#include <type_traits>

#include "tessera/cuda/strategies.hpp"

namespace tessera::cuda {

namespace detail {
template <class P>
struct is_automatic_candidate : std::bool_constant<P::automatic_candidate> {};
}  // namespace detail

/// The strategies cuda::automatic chooses among (each compiled for every built-in shape
/// with its default tiles).
using automatic_candidates = filter_types_t<detail::is_automatic_candidate, strategies>;

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

/// Calls f with the policy value (default tiles) of candidate c.
template <class F>
void with_candidate(candidate c, F&& f) {
  visit_type_at(automatic_candidates{}, c.index(), f);
}

}  // namespace tessera::cuda
