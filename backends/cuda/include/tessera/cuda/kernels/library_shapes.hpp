#pragma once
// The shapes whose kernels ship compiled in tessera_cuda (float and double, default
// tiles): stars of radius 1-4 in 1D, 2D and 3D, boxes of radius 1-2 in 2D and 3D.
#include "tessera/core/shape.hpp"
#include "tessera/cuda/launch.hpp"

// clang-format off
#define TESSERA_CUDA_FOR_EACH_LIBRARY_SHAPE(M, ...)                               \
  M(__VA_ARGS__, tessera::star<1, 1>) M(__VA_ARGS__, tessera::star<1, 2>)        \
  M(__VA_ARGS__, tessera::star<1, 3>) M(__VA_ARGS__, tessera::star<1, 4>)        \
  M(__VA_ARGS__, tessera::star<2, 1>) M(__VA_ARGS__, tessera::star<2, 2>)        \
  M(__VA_ARGS__, tessera::star<2, 3>) M(__VA_ARGS__, tessera::star<2, 4>)        \
  M(__VA_ARGS__, tessera::star<3, 1>) M(__VA_ARGS__, tessera::star<3, 2>)        \
  M(__VA_ARGS__, tessera::star<3, 3>) M(__VA_ARGS__, tessera::star<3, 4>)        \
  M(__VA_ARGS__, tessera::box<2, 1>)  M(__VA_ARGS__, tessera::box<2, 2>)         \
  M(__VA_ARGS__, tessera::box<3, 1>)  M(__VA_ARGS__, tessera::box<3, 2>)
// clang-format on

// Register tiling serves stars of rank 2 and 3 only (see its plan's reason).
// clang-format off
#define TESSERA_CUDA_FOR_EACH_LIBRARY_SHAPE_REGISTER_TILED(M, ...)                \
  M(__VA_ARGS__, tessera::star<2, 1>) M(__VA_ARGS__, tessera::star<2, 2>)        \
  M(__VA_ARGS__, tessera::star<2, 3>) M(__VA_ARGS__, tessera::star<2, 4>)        \
  M(__VA_ARGS__, tessera::star<3, 1>) M(__VA_ARGS__, tessera::star<3, 2>)        \
  M(__VA_ARGS__, tessera::star<3, 3>) M(__VA_ARGS__, tessera::star<3, 4>)
// clang-format on
