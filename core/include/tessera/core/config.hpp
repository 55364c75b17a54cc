#pragma once
// Build switches and the host/device annotation used by every header that may be
// compiled by nvcc. TESSERA_ENABLE_CUDA is defined (to 1) by the CMake target when the
// CUDA backend is built; TESSERA_DEBUG_BOUNDS turns on accessor bounds checks.
#include <cstdint>

#if defined(__CUDACC__)
#define TESSERA_HD __host__ __device__
#define TESSERA_DEVICE_CODE 1
#else
#define TESSERA_HD
#endif

#if defined(__CUDA_ARCH__)
#define TESSERA_ON_DEVICE 1
#endif

#ifndef TESSERA_ENABLE_CUDA
#define TESSERA_ENABLE_CUDA 0
#endif

namespace tessera {
/// Signed index type for every extent, stride and coordinate: ghost cells have
/// negative coordinates, and 512^3 grids with padding overflow 32 bits in bytes.
using index_t = std::int64_t;
}  // namespace tessera
