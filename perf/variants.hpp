#pragma once
// Tile and pipeline-depth variants that `tessera-bench --variants` times against the
// defaults, to choose defaults (and the tuning table) by measurement. Instantiated in
// variants_float.cu and variants_double.cu (one translation unit per precision, so the
// build spreads over the cores). Run 3 (perf/RESULTS.md) swept shared_streaming's tiles,
// run 2 cuda::streaming's.
#include <tessera/cuda/policy.hpp>

namespace tessera::bench {
// 3D pipelined: BX x BY threads, RY rows each, Stages planes in flight (0: by shape),
// Chunk planes per block (0: the plan's); the default is <128, 4, 4> (box: <128, 2, 8>)
using pl_128x4x4x1 = cuda::pipelined<128, 4, 4, 1>;
using pl_128x4x4x2 = cuda::pipelined<128, 4, 4, 2>;
using pl_128x4x4x3 = cuda::pipelined<128, 4, 4, 3>;
using pl_64x4x4x3 = cuda::pipelined<64, 4, 4, 3>;  // 64 x 16: smaller planes for wide shapes
using pl_256x2x4 = cuda::pipelined<256, 2, 4>;     // 256 x 8
using pl_128x2x8 = cuda::pipelined<128, 2, 8>;     // 128 x 16 with 8 rows a thread: more reuse, fewer threads
// the default kernel with another chunk (no instantiation: the chunk is a launch argument)
using pl_chunk4 = cuda::pipelined<0, 0, 0, 0, 4>;
using pl_chunk8 = cuda::pipelined<0, 0, 0, 0, 8>;
using pl_chunk16 = cuda::pipelined<0, 0, 0, 0, 16>;
using pl_chunk32 = cuda::pipelined<0, 0, 0, 0, 32>;
using pl_chunk64 = cuda::pipelined<0, 0, 0, 0, 64>;
using pl_chunk128 = cuda::pipelined<0, 0, 0, 0, 128>;
// vector_streaming: BY warps, Chunk planes (0: the plan's), Depth planes in flight per
// lane; the default is <8, 0, 1> (3D shapes reaching over a row along y: <4, 0, 1>).
// Chunk-only variants share the default kernel.
using vs_4 = cuda::vector_streaming<4>;
using vs_8 = cuda::vector_streaming<8>;  // 3D only (the 2D default)
using vs_16 = cuda::vector_streaming<16>;  // 2D only (3D: 0.42-0.48 for the box and 25-point, run 7)
using vs_depth2 = cuda::vector_streaming<0, 0, 2>;
using vs_chunk2 = cuda::vector_streaming<0, 2>;
using vs_chunk4 = cuda::vector_streaming<0, 4>;
using vs_chunk8 = cuda::vector_streaming<0, 8>;
using vs_chunk16 = cuda::vector_streaming<0, 16>;
// 2D pipelined: BX threads x RY columns, Stages rows in flight; default <128, 1, 4, 4>
using pl2_128x4x8 = cuda::pipelined<128, 1, 4, 8>;
using pl2_256x2x8 = cuda::pipelined<256, 1, 2, 8>;
using pl2_256x4x4 = cuda::pipelined<256, 1, 4, 4>;
using pl2_128x4x2 = cuda::pipelined<128, 1, 4, 2>;
// temporal_blocking: Steps per pass (the default: 4 for 3D stars of radius 1, 2 for 3D boxes
// and radius 2, 8 for 2D radius 1), the tile, rows a thread (the 3D default: 32 x 32, 4
// rows); `--fused` times each on the cases issue #16 names (none repeats a default). The
// variants that lost by 15% or more in runs 20-24 (a column a thread, 2 or 8 rows in a wide
// tile, 2D strips of 64) left the build: perf/RESULTS.md keeps their numbers.
using tb_1 = cuda::temporal_blocking<1>;  // a pass a step: the faces' rules in the pass, no ghost fill
using tb_2 = cuda::temporal_blocking<2>;
using tb_3 = cuda::temporal_blocking<3>;
using tb_4 = cuda::temporal_blocking<4>;
// 2D: <steps, a warp's strip of columns (32 a lane), warps a block>; the default <8, 128, 1>
using tb_2d_6 = cuda::temporal_blocking<6>;
using tb_2d_8x128x4 = cuda::temporal_blocking<8, 128, 4>;
using tb_3_64x32 = cuda::temporal_blocking<3, 64, 32>;
using tb_4_64x32 = cuda::temporal_blocking<4, 64, 32>;
// a 3D box's one-column pass (a tile named), beside the register-tile pass the default runs
using tb_2_columns = cuda::temporal_blocking<2, 32, 32, 4>;
// persistent: <steps a pass, rows a thread (4-byte types; 8-byte: half), planes between
// block barriers, threads a block at most>; the default <4096, 8, 4, 384>
using ps_6x4 = cuda::persistent<0, 6, 4>;
using ps_8x2 = cuda::persistent<0, 8, 2>;
}  // namespace tessera::bench

// clang-format off
#define TESSERA_BENCH_VARIANT_SHAPES_3D(M, ...)                                \
  M(__VA_ARGS__, tessera::star<3, 1>) M(__VA_ARGS__, tessera::star<3, 2>)     \
  M(__VA_ARGS__, tessera::star<3, 4>)                                         \
  M(__VA_ARGS__, tessera::box<3, 1>)
#define TESSERA_BENCH_FUSED_VARIANTS(T)                                                            \
  TESSERA_CUDA_INSTANTIATE(tessera::bench::tb_1, T, tessera::star<3, 1>)                           \
  TESSERA_CUDA_INSTANTIATE(tessera::bench::tb_2, T, tessera::star<3, 1>)                           \
  TESSERA_CUDA_INSTANTIATE(tessera::bench::tb_3, T, tessera::star<3, 1>)                           \
  TESSERA_CUDA_INSTANTIATE(tessera::bench::tb_3, T, tessera::star<3, 2>)                           \
  TESSERA_CUDA_INSTANTIATE(tessera::bench::tb_3, T, tessera::box<3, 1>)                            \
  TESSERA_CUDA_INSTANTIATE(tessera::bench::tb_2_columns, T, tessera::box<3, 1>)                    \
  TESSERA_CUDA_INSTANTIATE(tessera::bench::tb_4, T, tessera::star<2, 1>)                           \
  TESSERA_CUDA_INSTANTIATE(tessera::bench::tb_2d_6, T, tessera::star<2, 1>)                        \
  TESSERA_CUDA_INSTANTIATE(tessera::bench::tb_2d_8x128x4, T, tessera::star<2, 1>)                  \
  TESSERA_CUDA_INSTANTIATE(tessera::bench::tb_4, T, tessera::box<2, 1>)                            \
  TESSERA_CUDA_INSTANTIATE(tessera::bench::tb_2d_6, T, tessera::box<2, 1>)                         \
  TESSERA_CUDA_INSTANTIATE(tessera::bench::tb_3_64x32, T, tessera::star<3, 1>)                     \
  TESSERA_CUDA_INSTANTIATE(tessera::bench::tb_4_64x32, T, tessera::star<3, 1>)                     \
  TESSERA_CUDA_INSTANTIATE(tessera::bench::ps_6x4, T, tessera::star<3, 1>)                         \
  TESSERA_CUDA_INSTANTIATE(tessera::bench::ps_8x2, T, tessera::star<3, 1>)
#define TESSERA_BENCH_VARIANTS(T)                                                                    \
  TESSERA_BENCH_FUSED_VARIANTS(T)                                                                    \
  TESSERA_BENCH_VARIANT_SHAPES_3D(TESSERA_CUDA_INSTANTIATE, tessera::bench::pl_128x4x4x1, T)         \
  TESSERA_BENCH_VARIANT_SHAPES_3D(TESSERA_CUDA_INSTANTIATE, tessera::bench::pl_128x4x4x2, T)         \
  TESSERA_BENCH_VARIANT_SHAPES_3D(TESSERA_CUDA_INSTANTIATE, tessera::bench::pl_128x4x4x3, T)         \
  TESSERA_BENCH_VARIANT_SHAPES_3D(TESSERA_CUDA_INSTANTIATE, tessera::bench::pl_64x4x4x3, T)          \
  TESSERA_BENCH_VARIANT_SHAPES_3D(TESSERA_CUDA_INSTANTIATE, tessera::bench::pl_256x2x4, T)           \
  TESSERA_BENCH_VARIANT_SHAPES_3D(TESSERA_CUDA_INSTANTIATE, tessera::bench::pl_128x2x8, T)           \
  TESSERA_BENCH_VARIANT_SHAPES_3D(TESSERA_CUDA_INSTANTIATE, tessera::bench::vs_8, T)                 \
  TESSERA_BENCH_VARIANT_SHAPES_3D(TESSERA_CUDA_INSTANTIATE, tessera::bench::vs_4, T)                 \
  TESSERA_BENCH_VARIANT_SHAPES_3D(TESSERA_CUDA_INSTANTIATE, tessera::bench::vs_depth2, T)            \
  TESSERA_CUDA_INSTANTIATE(tessera::bench::vs_4, T, tessera::star<2, 1>)                             \
  TESSERA_CUDA_INSTANTIATE(tessera::bench::vs_16, T, tessera::star<2, 1>)                            \
  TESSERA_CUDA_INSTANTIATE(tessera::bench::vs_depth2, T, tessera::star<2, 1>)                        \
  TESSERA_CUDA_INSTANTIATE(tessera::bench::pl2_128x4x8, T, tessera::star<2, 1>)                      \
  TESSERA_CUDA_INSTANTIATE(tessera::bench::pl2_256x2x8, T, tessera::star<2, 1>)                      \
  TESSERA_CUDA_INSTANTIATE(tessera::bench::pl2_256x4x4, T, tessera::star<2, 1>)                      \
  TESSERA_CUDA_INSTANTIATE(tessera::bench::pl2_128x4x2, T, tessera::star<2, 1>)
// clang-format on
