#pragma once
// Stencil shapes as types. A shape is any type S with
//   static constexpr int rank;                         // 1, 2 or 3
//   static constexpr offsets<rank, N> points;          // the N offsets, (z, y, x) order
// Everything else (size, reach per axis, radius) is derived by shape_traits<S>, so a
// user-declared point list gets the same checks and kernels as the built-in shapes:
//
//   struct upwind3 {                                   // 3-point upwind, 1D
//     static constexpr int rank = 1;
//     static constexpr tessera::offsets<1, 3> points{{{-2}, {-1}, {0}}};
//     static constexpr const char* name = "upwind3";   // optional, for messages
//   };
//
// Built-in shapes order their points so coefficients can be written by hand:
//   star<R, r>: centre; then axis 0 offsets -1, +1, -2, +2, ..., -r, +r; then axis 1; ...
//   box<R, r>:  every offset in [-r, r]^R in row-major order (last axis fastest).
#include <concepts>
#include <cstddef>
#include <string>

#include "tessera/core/array.hpp"

namespace tessera {

template <int Rank>
using offset = array<int, Rank>;
template <int Rank, std::size_t N>
using offsets = array<offset<Rank>, N>;

namespace detail {
template <int Rank, int Radius>
constexpr auto make_star_points() {
  offsets<Rank, 1 + 2 * Rank * Radius> p{};
  std::size_t k = 1;  // p[0] is the centre (all zeros)
  for (int d = 0; d < Rank; ++d)
    for (int r = 1; r <= Radius; ++r) {
      p[k][d] = -r;
      ++k;
      p[k][d] = r;
      ++k;
    }
  return p;
}

constexpr int ipow(int b, int e) { return e == 0 ? 1 : b * ipow(b, e - 1); }

template <int Rank, int Radius>
constexpr auto make_box_points() {
  constexpr int w = 2 * Radius + 1;
  offsets<Rank, ipow(w, Rank)> p{};
  for (int k = 0; k < ipow(w, Rank); ++k) {
    int rem = k;
    for (int d = Rank - 1; d >= 0; --d) {
      p[k][d] = rem % w - Radius;
      rem /= w;
    }
  }
  return p;
}
}  // namespace detail

/// The (2·Rank·Radius + 1)-point star: the centre and Radius neighbours each way on each
/// axis (3D radius 1 is the 7-point Laplacian shape).
template <int Rank, int Radius>
struct star {
  static_assert(Rank >= 1 && Rank <= 3, "tessera::star: rank must be 1, 2 or 3");
  static_assert(Radius >= 1, "tessera::star: radius must be >= 1");
  static constexpr int rank = Rank;
  static constexpr auto points = detail::make_star_points<Rank, Radius>();
};

/// The (2·Radius + 1)^Rank-point box: every offset within Radius on every axis
/// (3D radius 1 is the 27-point shape).
template <int Rank, int Radius>
struct box {
  static_assert(Rank >= 1 && Rank <= 3, "tessera::box: rank must be 1, 2 or 3");
  static_assert(Radius >= 1, "tessera::box: radius must be >= 1");
  static constexpr int rank = Rank;
  static constexpr auto points = detail::make_box_points<Rank, Radius>();
};

template <class S>
concept shape = requires {
  { S::rank } -> std::convertible_to<int>;
  { S::points[0][0] } -> std::convertible_to<int>;
  S::points.size();
} && (S::rank >= 1 && S::rank <= 3) && (decltype(S::points)::size() >= 1);

/// Everything derived from a shape's point list.
template <shape S>
struct shape_traits {
  static constexpr int rank = S::rank;
  static constexpr int size = static_cast<int>(decltype(S::points)::size());

  static constexpr array<int, rank> reach_lo = [] {
    array<int, rank> lo{};
    for (const auto& p : S::points)
      for (int d = 0; d < rank; ++d) lo[d] = p[d] < lo[d] ? p[d] : lo[d];
    return lo;
  }();
  static constexpr array<int, rank> reach_hi = [] {
    array<int, rank> hi{};
    for (const auto& p : S::points)
      for (int d = 0; d < rank; ++d) hi[d] = p[d] > hi[d] ? p[d] : hi[d];
    return hi;
  }();
  /// Largest |offset| on any axis: the ghost width the input needs.
  static constexpr int radius = [] {
    int r = 0;
    for (int d = 0; d < rank; ++d) {
      r = -reach_lo[d] > r ? -reach_lo[d] : r;
      r = reach_hi[d] > r ? reach_hi[d] : r;
    }
    return r;
  }();
  /// Largest |offset| on axis d.
  static constexpr int radius_on(int d) {
    return -reach_lo[d] > reach_hi[d] ? -reach_lo[d] : reach_hi[d];
  }
  /// True when every point off the slowest axis' centre plane lies on that axis
  /// ((dz, 0, 0) in 3D): the z-neighbours then fit in one thread's registers.
  static constexpr bool slow_axis_neighbours_on_axis = [] {
    for (const auto& p : S::points) {
      if (p[0] == 0) continue;
      for (int d = 1; d < rank; ++d)
        if (p[d] != 0) return false;
    }
    return true;
  }();
  /// True when no two points coincide (a repeated offset is almost surely a typo).
  static constexpr bool distinct = [] {
    for (int i = 0; i < size; ++i)
      for (int j = i + 1; j < size; ++j)
        if (S::points[i] == S::points[j]) return false;
    return true;
  }();
};

template <shape S>
inline constexpr int shape_size_v = shape_traits<S>::size;

namespace detail {
template <class S>
struct shape_name_impl {
  static std::string get() {
    if constexpr (requires { S::name; }) {
      return S::name;
    } else {
      return "custom<rank " + std::to_string(S::rank) + ", " +
             std::to_string(shape_traits<S>::size) + " points>";
    }
  }
};
template <int R, int r>
struct shape_name_impl<star<R, r>> {
  static std::string get() { return "star<" + std::to_string(R) + "," + std::to_string(r) + ">"; }
};
template <int R, int r>
struct shape_name_impl<box<R, r>> {
  static std::string get() { return "box<" + std::to_string(R) + "," + std::to_string(r) + ">"; }
};
}  // namespace detail

/// A readable name: "star<3,1>", "box<2,2>", a custom shape's own `name`, or
/// "custom<rank 1, 3 points>".
template <shape S>
std::string shape_name() {
  return detail::shape_name_impl<S>::get();
}

}  // namespace tessera
