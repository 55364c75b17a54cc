#pragma once
// Non-default tile choices the launch-shape test checks (instantiated in
// test_instantiations_tiles.cu).
#include <tessera/cuda/policy.hpp>

namespace tessera::test {
using naive_16x4x2 = cuda::naive<16, 4, 2>;
using tiled_16x16 = cuda::tiled<16, 16, 4>;
using tiled_128 = cuda::tiled<128>;
using coarsened_64x8x4 = cuda::coarsened<64, 8, 4>;
using register_tiled_64x8x4 = cuda::register_tiled<64, 8, 4>;
using streaming_64x4x16 = cuda::streaming<64, 4, 16>;
// 64 x 2 threads, 3 rows each (a 64 x 6 tile), 5 planes per block: a chunk that is not a
// multiple of the ring, rows and planes that end mid-tile.
using shared_streaming_64x2x3x5 = cuda::shared_streaming<64, 2, 3, 5>;
// 64 x 2 threads, 3 rows each (a 64 x 6 tile), one plane in flight; and 2D: 32 threads
// x 3 columns (a 96-column row), 3 rows in flight. Rows and planes end mid-tile.
using pipelined_64x2x3x1 = cuda::pipelined<64, 2, 3, 1>;
using pipelined_32x3x3 = cuda::pipelined<32, 1, 3, 3>;
// 3 planes per block: fewer than the 8 planes the 25-point star reaches beyond them, so
// a block copies more planes before its first step than it computes; the last has 1.
using pipelined_64x2x3x1x3 = cuda::pipelined<64, 2, 3, 1, 3>;
// 4 warps a block, 3 planes per block (fewer than the 25-point star's 8 planes of reach),
// 4 planes in flight (3 loaded ahead of the next step's: more than a 3-plane chunk
// uses, and the last chunk has 1); rows end mid-warp.
using vector_streaming_4x3x4 = cuda::vector_streaming<4, 3, 4>;
// Up to 3 steps per pass on a 16 x 8 tile: several tiles along y as well as x, outputs
// per tile (10 x 2 at 3 steps of radius 1) that divide no extent; 4 rows a thread (the
// default), so a warp spans two rows of threads.
using temporal_blocking_3x16x8 = cuda::temporal_blocking<3, 16, 8>;
// A column a thread (run 12's kernel), and 8 rows a thread in a 32 x 24 tile (3 rows of
// threads; a radius-2 star's y-neighbours reach 2 rows past a thread's own).
using temporal_blocking_rows1 = cuda::temporal_blocking<3, 32, 32, 1>;
using temporal_blocking_2x32x24x8 = cuda::temporal_blocking<2, 32, 24, 8>;
// Up to 3 steps a pass and no tile named: 3D boxes run the register-tile pass
// (temporal_blocking/box_tile.cuh) at 1, 2 and 3 steps.
using temporal_blocking_3 = cuda::temporal_blocking<3>;
// 2D: a lane of one column (a 32-column strip, 3 warps a block: the grid's last block has
// warps past the grid), and two columns a lane (64-column strips, one warp a block).
using temporal_blocking_2d_5x32x3 = cuda::temporal_blocking<5, 32, 3>;
using temporal_blocking_2d_6x64x1 = cuda::temporal_blocking<6, 64, 1>;
// 2D: 6 steps a pass on the default 128-column strips, a float pass of radius 1: the
// middle steps (kernels/temporal_blocking_2d.cuh), contiguous and at the faces.
using temporal_blocking_2d_6 = cuda::temporal_blocking<6>;
}  // namespace tessera::test
