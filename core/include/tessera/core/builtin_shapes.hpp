#pragma once
// The built-in shapes every backend is built and tested for: stars of radius 1-4 in 1D,
// 2D and 3D, and boxes of radius 1-2 in 2D and 3D. TESSERA_FOR_EACH_BUILTIN_SHAPE(M, a...)
// expands M(a..., shape) for each; the shape comes last, as __VA_ARGS__, because it
// contains commas.
#include "tessera/core/shape.hpp"

// clang-format off
#define TESSERA_FOR_EACH_BUILTIN_SHAPE_1D(M, ...)                                 \
  M(__VA_ARGS__, tessera::star<1, 1>) M(__VA_ARGS__, tessera::star<1, 2>)        \
  M(__VA_ARGS__, tessera::star<1, 3>) M(__VA_ARGS__, tessera::star<1, 4>)
#define TESSERA_FOR_EACH_BUILTIN_SHAPE_2D3D(M, ...)                               \
  M(__VA_ARGS__, tessera::star<2, 1>) M(__VA_ARGS__, tessera::star<2, 2>)        \
  M(__VA_ARGS__, tessera::star<2, 3>) M(__VA_ARGS__, tessera::star<2, 4>)        \
  M(__VA_ARGS__, tessera::star<3, 1>) M(__VA_ARGS__, tessera::star<3, 2>)        \
  M(__VA_ARGS__, tessera::star<3, 3>) M(__VA_ARGS__, tessera::star<3, 4>)        \
  M(__VA_ARGS__, tessera::box<2, 1>)  M(__VA_ARGS__, tessera::box<2, 2>)         \
  M(__VA_ARGS__, tessera::box<3, 1>)  M(__VA_ARGS__, tessera::box<3, 2>)
#define TESSERA_FOR_EACH_BUILTIN_SHAPE(M, ...)                                    \
  TESSERA_FOR_EACH_BUILTIN_SHAPE_1D(M, __VA_ARGS__) TESSERA_FOR_EACH_BUILTIN_SHAPE_2D3D(M, __VA_ARGS__)
// clang-format on
