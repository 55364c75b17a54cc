#pragma once
// The shapes whose kernels ship compiled in tessera_cuda (float and double, default
// tiles): the built-in shapes (core/builtin_shapes.hpp).
#include "tessera/core/builtin_shapes.hpp"
#include "tessera/cuda/launch.hpp"

#define TESSERA_CUDA_FOR_EACH_LIBRARY_SHAPE(M, ...) TESSERA_FOR_EACH_BUILTIN_SHAPE(M, __VA_ARGS__)

// Streaming serves every shape of rank 2 and 3.
#define TESSERA_CUDA_FOR_EACH_LIBRARY_SHAPE_2D3D(M, ...) TESSERA_FOR_EACH_BUILTIN_SHAPE_2D3D(M, __VA_ARGS__)

// Register tiling serves stars of rank 2 and 3 only (see its plan's reason).
// clang-format off
#define TESSERA_CUDA_FOR_EACH_LIBRARY_SHAPE_REGISTER_TILED(M, ...)                \
  M(__VA_ARGS__, tessera::star<2, 1>) M(__VA_ARGS__, tessera::star<2, 2>)        \
  M(__VA_ARGS__, tessera::star<2, 3>) M(__VA_ARGS__, tessera::star<2, 4>)        \
  M(__VA_ARGS__, tessera::star<3, 1>) M(__VA_ARGS__, tessera::star<3, 2>)        \
  M(__VA_ARGS__, tessera::star<3, 3>) M(__VA_ARGS__, tessera::star<3, 4>)
// clang-format on
