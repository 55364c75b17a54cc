#pragma once
// The shape matrix every backend is tested on: star radius 1-4 in 1D/2D/3D, box radius
// 1-2 in 2D/3D, and custom asymmetric shapes. TESSERA_FOR_EACH_SHAPE(M) expands M(shape)
// for each; the shape is passed last, as __VA_ARGS__, because it contains commas.
#include <tessera/core/builtin_shapes.hpp>

namespace tessera::test {

/// First-order upwind-biased 3-point shape (1D): reaches 2 to the left, 0 to the right.
struct upwind3 {
  static constexpr int rank = 1;
  static constexpr offsets<1, 3> points{{{-2}, {-1}, {0}}};
  static constexpr const char* name = "upwind3";
};

/// An asymmetric 3D shape: reaches further in -x than +x, has an off-axis z point
/// (so it is not register-tileable), and no centre point.
struct skewed3d {
  static constexpr int rank = 3;
  static constexpr offsets<3, 5> points{{{0, 0, -3}, {0, 1, 1}, {-1, 0, 0}, {2, -1, 0}, {0, 0, 2}}};
  static constexpr const char* name = "skewed3d";
};

/// An asymmetric 2D shape (a one-sided corner).
struct corner2d {
  static constexpr int rank = 2;
  static constexpr offsets<2, 4> points{{{0, 0}, {0, 1}, {1, 0}, {1, 1}}};
  static constexpr const char* name = "corner2d";
};

}  // namespace tessera::test

#define TESSERA_FOR_EACH_SHAPE(M, ...)                                          \
  TESSERA_FOR_EACH_BUILTIN_SHAPE(M, __VA_ARGS__)                                \
  M(__VA_ARGS__, tessera::test::upwind3) M(__VA_ARGS__, tessera::test::corner2d) \
  M(__VA_ARGS__, tessera::test::skewed3d)
