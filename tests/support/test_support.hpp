#pragma once
// Helpers shared by the test suites: random fills, NaN poisoning with ghost sentinels,
// awkward extents, and iteration over a view's points (interior or with ghosts).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>

#include <tessera/tessera.hpp>

namespace tessera::test {

/// Sizes that are multiples of nothing useful (primes), per rank.
template <int Rank>
extents<Rank> awkward_extents() {
  if constexpr (Rank == 1) return extents<1>(101);
  else if constexpr (Rank == 2) return extents<2>(37, 53);
  else return extents<3>(37, 29, 53);
}

/// Calls f(i...) for every point with -halo <= i_d < n_d + halo.
template <int Rank, class F>
void for_each_point(const extents<Rank>& n, int halo, F&& f) {
  if constexpr (Rank == 1) {
    for (index_t x = -halo; x < n[0] + halo; ++x) f(x);
  } else if constexpr (Rank == 2) {
    for (index_t y = -halo; y < n[0] + halo; ++y)
      for (index_t x = -halo; x < n[1] + halo; ++x) f(y, x);
  } else {
    for (index_t z = -halo; z < n[0] + halo; ++z)
      for (index_t y = -halo; y < n[1] + halo; ++y)
        for (index_t x = -halo; x < n[2] + halo; ++x) f(z, y, x);
  }
}

template <class... I>
bool is_interior(const index_t* n, I... i) {
  const index_t idx[] = {static_cast<index_t>(i)...};
  for (std::size_t d = 0; d < sizeof...(I); ++d)
    if (idx[d] < 0 || idx[d] >= n[d]) return false;
  return true;
}

/// Uniform values in [-1, 1] everywhere, ghosts included. Never zeros: an unwritten or
/// misindexed point must show.
template <class T, int Rank>
void fill_random(const View<T, Rank, HostSpace>& v, std::uint64_t seed) {
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  for_each_point<Rank>(v.extents(), v.ghost(), [&](auto... i) { v(i...) = static_cast<T>(dist(gen)); });
}

/// A value no sweep produces from inputs in [-1, 1] with small coefficients, unique per
/// ghost cell so a shifted write shows too.
template <class T, class... I>
T ghost_sentinel(I... i) {
  index_t h = 17;
  ((h = h * 131 + static_cast<index_t>(i) + 7), ...);
  return static_cast<T>(1000 + (h % 997));
}

/// Interior NaN (so any unwritten point fails a comparison), ghosts = sentinels.
template <class T, int Rank>
void poison(const View<T, Rank, HostSpace>& v) {
  const auto n = v.extents().n;
  for_each_point<Rank>(v.extents(), v.ghost(), [&](auto... i) {
    v(i...) = is_interior(n.elems, i...) ? std::numeric_limits<T>::quiet_NaN() : ghost_sentinel<T>(i...);
  });
}

/// Number of ghost cells that no longer hold their sentinel.
template <class T, int Rank>
index_t ghosts_changed(const View<T, Rank, HostSpace>& v) {
  const auto n = v.extents().n;
  index_t bad = 0;
  for_each_point<Rank>(v.extents(), v.ghost(), [&](auto... i) {
    if (!is_interior(n.elems, i...) && !(v(i...) == ghost_sentinel<T>(i...))) ++bad;
  });
  return bad;
}

/// Random coefficients in [-1, 1] for any shape.
template <class S, class T>
stencil<S, T> random_stencil(std::uint64_t seed) {
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  stencil<S, T> st;
  for (auto& c : st.coeffs) c = static_cast<T>(dist(gen));
  return st;
}

/// The message of the E that f() throws; "(no exception)" when it throws none.
template <class E, class F>
std::string message_of(F&& f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  }
  return "(no exception)";
}

/// Largest |a - b| / max(1, |b|) over the interior of two host views; a NaN anywhere
/// (in either) gives infinity.
template <class T, int Rank>
double max_relative_error(const View<T, Rank, HostSpace>& a, const View<T, Rank, HostSpace>& b) {
  double worst = 0;
  for_each_point<Rank>(a.extents(), 0, [&](auto... i) {
    const double x = a(i...), y = b(i...);
    const double e = std::abs(x - y) / std::max(1.0, std::abs(y));
    worst = std::isnan(e) ? INFINITY : std::max(worst, e);
  });
  return worst;
}

/// Relative tolerance between two correct sweeps of the same input.
template <class T>
constexpr double agreement_tolerance() {
  return sizeof(T) >= 8 ? 1e-13 : 1e-6;
}

}  // namespace tessera::test
