// CUDA backend semantics: the block shape a kernel really ran with, streams, bad input,
// device-side comparison, the portable tessera::automatic, and error messages.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>

#include "../support/cuda_support.hpp"
#include "../support/test_support.hpp"
#include "tile_choices.hpp"

namespace ts = tessera;
namespace cu = tessera::cuda;
using namespace ts::test;

TEST_CASE("launch record: the block each kernel ran with matches its policy") {
  TESSERA_REQUIRE_CUDA_DEVICE();
  const ts::extents<3> e3{37, 29, 53};
  auto r = sweep_and_check<naive_16x4x2, ts::star<3, 1>, float>(e3);
  CHECK(r.block[0] == 16);
  CHECK(r.block[1] == 4);
  CHECK(r.block[2] == 2);
  CHECK(r.policy == "cuda:naive");
  CHECK(r.grid[0] == 4);  // ceil(53 / 16)
  r = sweep_and_check<naive_16x4x2, ts::star<2, 1>, float>(ts::extents<2>{37, 53});
  CHECK(r.block[0] == 16);
  CHECK(r.block[1] == 8);  // 2D folds z into y
  r = sweep_and_check<tiled_16x16, ts::star<2, 2>, float>(ts::extents<2>{37, 53});
  CHECK(r.block[0] == 16);
  CHECK(r.block[1] == 16);
  CHECK(r.plan.out_tile[0] == 16);  // the block is the output tile
  CHECK(r.plan.shared_bytes == 20 * 20 * sizeof(float));  // and its halo of 2, staged
  CHECK(r.grid[1] == 3);  // ceil(37 / 16)
  r = sweep_and_check<tiled_16x16, ts::star<3, 1>, double>(e3);
  CHECK(r.block[2] == 4);
  CHECK(r.grid[2] == 10);  // ceil(37 / 4)
  r = sweep_and_check<tiled_128, ts::star<1, 1>, float>(ts::extents<1>{1001});
  CHECK(r.block[0] == 128);
  CHECK(r.plan.shared_bytes == (128 + 2) * sizeof(float));
  r = sweep_and_check<coarsened_64x8x4, ts::star<3, 2>, float>(e3);
  CHECK(r.block[0] == 64);
  CHECK(r.block[1] == 8);
  CHECK(r.block[2] == 1);
  CHECK(r.grid[2] == 10);  // ceil(37 / 4)
  r = sweep_and_check<coarsened_64x8x4, ts::box<3, 1>, double>(e3);
  CHECK(r.block[0] == 64);
  r = sweep_and_check<register_tiled_64x8x4, ts::star<3, 2>, float>(e3);
  CHECK(r.block[0] == 64);
  CHECK(r.block[1] == 8);
  r = sweep_and_check<register_tiled_64x8x4, ts::star<2, 1>, double>(ts::extents<2>{37, 53});
  CHECK(r.block[0] == 64);
  CHECK(r.block[1] == 1);
  r = sweep_and_check<streaming_64x4x16, ts::box<3, 2>, float>(e3);
  CHECK((r.block[0] == 64 && r.block[1] == 4 && r.block[2] == 1));
  CHECK(r.grid[0] == 1);   // ceil(53 / 64)
  CHECK(r.grid[1] == 8);   // ceil(29 / 4)
  CHECK(r.grid[2] == 3);   // ceil(37 / 16)
  r = sweep_and_check<streaming_64x4x16, ts::star<2, 3>, double>(ts::extents<2>{37, 53});
  CHECK((r.block[0] == 64 && r.block[1] == 1));
  CHECK(r.grid[1] == 3);   // ceil(37 / 16) rows
  r = sweep_and_check<shared_streaming_64x2x3x5, ts::box<3, 2>, float>(e3);
  CHECK((r.block[0] == 64 && r.block[1] == 2 && r.block[2] == 1));
  CHECK(r.grid[1] == 5);   // ceil(29 / 6) tiles of 2 x 3 rows
  CHECK(r.grid[2] == 8);   // ceil(37 / 5)
  r = sweep_and_check<shared_streaming_64x2x3x5, ts::star<3, 4>, double>(e3);
  CHECK(r.plan.chunk == 5);
  r = sweep_and_check<shared_streaming_64x2x3x5, ts::box<2, 1>, double>(ts::extents<2>{37, 53});
  CHECK((r.block[0] == 64 && r.block[1] == 1));
  CHECK(r.grid[1] == 8);   // ceil(37 / 5) rows
  r = sweep_and_check<pipelined_64x2x3x1, ts::box<3, 2>, float>(e3);
  CHECK((r.block[0] == 64 && r.block[1] == 2 && r.block[2] == 1));
  CHECK(r.grid[1] == 5);  // ceil(29 / 6)
  CHECK(r.plan.shared_bytes == (5 + 1) * (6 + 4) * (32 + 64 + 32) * sizeof(float));  // 5 planes + 1 in flight
  r = sweep_and_check<pipelined_64x2x3x1, ts::star<3, 4>, double>(e3);
  CHECK(r.grid[0] == 1);
  r = sweep_and_check<pipelined_64x2x3x1x3, ts::star<3, 4>, float>(e3);
  CHECK(r.plan.chunk == 3);
  CHECK(r.grid[2] == 13);  // ceil(37 / 3): the last block computes 1 plane
  r = sweep_and_check<pipelined_32x3x3, ts::box<2, 1>, double>(ts::extents<2>{37, 53});
  CHECK((r.block[0] == 32 && r.block[1] == 1));
  CHECK(r.grid[0] == 1);  // one row of 96 columns covers 53
  r = sweep_and_check<pipelined_32x3x3, ts::star<2, 4>, float>(ts::extents<2>{41, 203});
  CHECK(r.grid[0] == 3);  // ceil(203 / 96)
  r = sweep_and_check<vector_streaming_4x3x4, ts::star<3, 4>, float>(e3);
  CHECK((r.block[0] == 32 && r.block[1] == 4 && r.block[2] == 1));
  CHECK(r.policy == "cuda:vector-streaming");
  CHECK(r.plan.shared_bytes == 0);
  CHECK(r.grid[0] == 1);   // accumulated: a warp holds 2 rows of 16 x 4 floats, 64 cover 53
  CHECK(r.grid[1] == 4);   // ceil(29 / (4 warps x 2 rows))
  CHECK(r.grid[2] == 13);  // ceil(37 / 3): the last block computes 1 plane
  r = sweep_and_check<vector_streaming_4x3x4, ts::box<3, 2>, double>(ts::extents<3>{11, 9, 131});
  CHECK(r.grid[0] == 3);  // ceil(131 / (32 x 2 doubles))
  r = sweep_and_check<vector_streaming_4x3x4, ts::star<2, 4>, double>(ts::extents<2>{41, 203});
  CHECK((r.block[0] == 32 && r.block[1] == 4));
  CHECK(r.grid[0] == 1);   // 4 warps x 64 doubles cover 203
  CHECK(r.grid[1] == 14);  // ceil(41 / 3) rows
  r = sweep_and_check<vector_streaming_4x3x4, ts::box<2, 1>, float>(ts::extents<2>{37, 1000});
  CHECK(r.grid[0] == 2);   // ceil(1000 / (4 x 128))
  // defaults, as documented in policy.hpp
  r = sweep_and_check<cu::naive<>, ts::star<3, 1>, float>(e3);
  CHECK((r.block[0] == 32 && r.block[1] == 8 && r.block[2] == 1));
  r = sweep_and_check<cu::tiled<>, ts::star<3, 1>, float>(e3);
  CHECK((r.block[0] == 8 && r.block[1] == 8 && r.block[2] == 8));
  r = sweep_and_check<cu::register_tiled<>, ts::star<3, 1>, float>(e3);
  CHECK((r.block[0] == 32 && r.block[1] == 32 && r.block[2] == 1));
  r = sweep_and_check<cu::pipelined<>, ts::star<3, 1>, float>(e3);  // the point mainloop: 4 rows a thread
  CHECK((r.block[0] == 128 && r.block[1] == 2 && r.plan.out_tile[1] == 8));
  r = sweep_and_check<cu::pipelined<>, ts::box<3, 1>, double>(e3);  // 8 rows a thread for the box
  CHECK((r.block[0] == 128 && r.block[1] == 2 && r.plan.out_tile[1] == 16));
  r = sweep_and_check<cu::vector_streaming<>, ts::star<3, 1>, float>(e3);  // 8 warps, 4 planes
  CHECK((r.block[0] == 32 && r.block[1] == 8 && r.plan.chunk == 4 && r.grid[2] == 10));
  r = sweep_and_check<cu::vector_streaming<>, ts::star<3, 4>, double>(e3);  // 4 warps of 2 rows; accumulated: 8 planes
  CHECK((r.block[1] == 4 && r.plan.chunk == 8 && r.grid[1] == 4));
  // tile parameters that resolve to the defaults share the library's compiled kernels
  r = sweep_and_check<cu::register_tiled<32, 32>, ts::star<3, 1>, float>(e3);
  CHECK((r.block[0] == 32 && r.block[1] == 32 && r.block[2] == 1));
  r = sweep_and_check<cu::naive<32, 8, 1>, ts::box<3, 2>, double>(e3);
  CHECK((r.block[0] == 32 && r.block[1] == 8 && r.block[2] == 1));
  r = sweep_and_check<cu::automatic, ts::star<1, 2>, float>(ts::extents<1>{1001});
  CHECK(r.policy == "cuda:naive");  // the only candidate with a 1D kernel
}

TEST_CASE("vector_streaming accumulates wide 3D stars: whole and cut row segments, rows past the grid, short chunks") {
  TESSERA_REQUIRE_CUDA_DEVICE();
  // 150 floats = 2 whole segments of 64 (the unbounded loop: neighbour vectors from L1,
  // edge lines prefetched) + 22 (the bounded loop: shuffles); 21 rows = 2 blocks of 8 + 5
  // (one warp's second row lies past the grid); 19 planes = 8 + 8 + 3.
  auto r = sweep_and_check<cu::vector_streaming<>, ts::star<3, 4>, float>(ts::extents<3>{19, 21, 150});
  CHECK((r.grid[0] == 3 && r.grid[1] == 3 && r.grid[2] == 3));
  // doubles: 32 a segment, 70 = 2 x 32 + 6; the 19-point star reaches 3 planes
  r = sweep_and_check<cu::vector_streaming<>, ts::star<3, 3>, double>(ts::extents<3>{11, 13, 70});
  CHECK((r.grid[0] == 3 && r.grid[1] == 2 && r.grid[2] == 2));
  // 4 own rows ahead, 3-plane chunks (the last of 1 plane), every segment whole
  r = sweep_and_check<vector_streaming_4x3x4, ts::star<3, 4>, float>(ts::extents<3>{10, 9, 128});
  CHECK((r.grid[0] == 2 && r.grid[1] == 2 && r.grid[2] == 4));
}

TEST_CASE("cuda::automatic runs the table's choice (the nearest device class's), else the default rule, or with "
          "TESSERA_TUNE=1 tunes once per case on scratch views") {
  TESSERA_REQUIRE_CUDA_DEVICE();
  const ts::extents<3> e3{37, 29, 53};
  const auto& lim = cu::current_device_limits();
  const auto device = cu::class_of(lim);
  CHECK(device.sm >= 10);
  CHECK(device.multiprocessors == lim.multiprocessors);
  CHECK(device.bandwidth_tbs > 0.1);  // read from the device's memory clock and bus width
  // a built-in shape the table measured runs the table's candidate on any device
  const auto c = cu::lookup(cu::builtin_tuning_table(), cu::make_tuning_key<ts::star<3, 1>, float>(device, double(e3.size())));
  REQUIRE(c.has_value());
  auto r = sweep_and_check<cu::automatic, ts::star<3, 1>, float>(e3);
  CHECK(r.policy == cu::candidate_name(*c));
  // radius 3 is not benchmarked, so in no table: without TESSERA_TUNE, the default rule
  // (pipelined for 2D/3D), nothing timed
  REQUIRE_FALSE(cu::lookup(cu::builtin_tuning_table(), cu::make_tuning_key<ts::star<3, 3>, double>(device, double(e3.size()))));
  const auto before = cu::tuning_cache_size();
  ::unsetenv("TESSERA_TUNE");
  r = sweep_and_check<cu::automatic, ts::star<3, 3>, double>(ts::extents<3>{23, 24, 25});
  CHECK(cu::tuning_cache_size() == before);
  CHECK(r.policy == "cuda:pipelined");
  // with TESSERA_TUNE=1 the first call times the candidates, the second reuses the choice
  ::setenv("TESSERA_TUNE", "1", 1);
  r = sweep_and_check<cu::automatic, ts::star<3, 3>, double>(e3);
  CHECK(cu::tuning_cache_size() == before + 1);
  const std::string key = lim.name + "|" + ts::shape_name<ts::star<3, 3>>() + "|double|" + e3.to_string();
  const auto chosen = cu::tuning_cache_find(key);
  REQUIRE(chosen.has_value());
  CHECK(r.policy == cu::candidate_name(*chosen));
  r = sweep_and_check<cu::automatic, ts::star<3, 3>, double>(e3);
  CHECK(cu::tuning_cache_size() == before + 1);
  CHECK(r.policy == cu::candidate_name(*chosen));
  // other extents are another case
  r = sweep_and_check<cu::automatic, ts::star<3, 3>, double>(ts::extents<3>{20, 21, 22});
  CHECK(cu::tuning_cache_size() == before + 2);
  ::unsetenv("TESSERA_TUNE");
  // the tuner times on scratch views: the caller's output keeps what it held
  ts::View<double, 3> in_h("in", ts::extents<3>{19, 18, 33}, 3), out_h("out", in_h.layout());
  fill_random(in_h, 5);
  poison(out_h);
  auto in = to_device(in_h, "in_d");
  auto out = to_device(out_h, "out_d");
  const auto st = random_stencil<ts::star<3, 3>, double>(6);
  (void)cu::detail::tune_on_first_use(st, in, out, nullptr);
  ts::View<double, 3> after("after", in_h.layout());
  ts::deep_copy(after, out);
  ts::index_t written = 0;  // interior points no longer NaN
  for_each_point<3>(after.extents(), 0, [&](auto... i) { written += !std::isnan(after(i...)); });
  CHECK(written == 0);
  CHECK(ghosts_changed(after) == 0);
}

TEST_CASE("apply on a user stream, results visible after synchronising it") {
  TESSERA_REQUIRE_CUDA_DEVICE();
  cudaStream_t s = nullptr;
  REQUIRE(cudaStreamCreate(&s) == cudaSuccess);
  ts::View<float, 3> in_h("in", ts::extents{19, 23, 31}, 1), ref("ref", in_h.layout()), out_h("o", in_h.layout());
  fill_random(in_h, 1);
  const auto st = random_stencil<ts::star<3, 1>, float>(2);
  auto in = to_device(in_h, "in_d");
  ts::View<float, 3, ts::CudaSpace> out("out_d", in.layout());
  ts::apply(cu::register_tiled<>{}, st, in, out, s);
  REQUIRE(cudaStreamSynchronize(s) == cudaSuccess);
  ts::apply(ts::host::serial{}, st, in_h, ref);
  ts::deep_copy(out_h, out);
  CHECK(ts::compare(out_h, ref).max_abs_error <= 1e-6 * ts::sweep_scale(st, in_h));
  cudaStreamDestroy(s);
}

TEST_CASE("CUDA policies reject bad input with the same named exceptions as the host") {
  TESSERA_REQUIRE_CUDA_DEVICE();
  ts::View<double, 3, ts::CudaSpace> u("u", ts::extents{4, 5, 6}, 1), w("w", ts::extents{4, 5, 7}, 1);
  ts::View<double, 3, ts::CudaSpace> thin("thin", ts::extents{4, 5, 6}, 1), v("v", ts::extents{4, 5, 6}, 2);
  const auto st1 = random_stencil<ts::star<3, 1>, double>(1);
  const auto st2 = random_stencil<ts::star<3, 2>, double>(1);
  CHECK_THROWS_AS(ts::apply(cu::naive<>{}, st1, u, u), ts::aliasing_error);
  CHECK_THROWS_WITH_AS(ts::apply(cu::coarsened<>{}, st1, u, w), doctest::Contains("4x5x7"),
                       ts::extent_mismatch_error);
  CHECK_THROWS_WITH_AS(ts::apply(cu::tiled<>{}, st2, thin, v), doctest::Contains("'thin'"),
                       ts::ghost_width_error);
  ts::View<double, 2, ts::CudaSpace> u2("u2", ts::extents{5, 6}, 1), v2("v2", ts::extents{5, 6}, 1);
  CHECK_THROWS_WITH_AS(ts::apply(cu::register_tiled<>{}, random_stencil<ts::box<2, 1>, double>(1), u2, v2),
                       doctest::Contains("cuda::coarsened"), ts::unsupported_error);
}

/// Runs policy on random data in views of layout l (host and device); true if it
/// agrees with host::serial.
template <class Policy, class S>
bool agrees_on_layout(const Policy& policy, const ts::stencil<S, float>& st, const ts::layout<3>& l, int seed) {
  ts::View<float, 3> in_h("in", l), ref("ref", l), out_h("out", l);
  fill_random(in_h, seed);
  poison(out_h);
  ts::View<float, 3, ts::CudaSpace> in("in", l), out("out", l);
  ts::deep_copy(in, in_h);
  ts::deep_copy(out, out_h);
  ts::apply(policy, st, in, out);
  ts::deep_copy(out_h, out);
  ts::apply(ts::host::serial{}, st, in_h, ref);
  return ts::compare(out_h, ref).passed(ts::default_tolerance<float>());
}

TEST_CASE("pipelined and vector_streaming refuse rows off 16-byte boundaries, automatic then takes another strategy") {
  TESSERA_REQUIRE_CUDA_DEVICE();
  const auto st = random_stencil<ts::star<3, 1>, float>(4);
  // Rows of 53 + 2 floats, unpadded: the interiors start on 4-byte boundaries only.
  const ts::layout<3> tight(ts::extents{9, 11, 53}, 1, 1);
  ts::View<float, 3, ts::CudaSpace> in("tight_in", tight), out("out", tight);
  CHECK_THROWS_WITH_AS(ts::apply(cu::pipelined<>{}, st, in, out),
                       doctest::Contains("'tight_in' (interior 9x11x53, ghost 1, CudaSpace) has a row alignment of 1"),
                       ts::unsupported_error);
  CHECK_FALSE(cu::view_requirement(cu::pipelined<>{}, in, out).empty());
  CHECK(cu::view_requirement(cu::shared_streaming<>{}, in, out).empty());
  CHECK_THROWS_WITH_AS(ts::apply(cu::vector_streaming<>{}, st, in, out),
                       doctest::Contains("'tight_in' (interior 9x11x53, ghost 1, CudaSpace) has a row alignment of 1"),
                       ts::unsupported_error);
  // automatic serves it whatever the table says (pipelined would be replaced)
  CHECK(agrees_on_layout(cu::automatic{}, st, tight, 3));
  CHECK(cu::last_launch().policy != "cuda:pipelined");
  // a layout aligned to 16 bytes (4 floats) is enough: the halo line left of the first
  // tile then starts before the row, and only its pieces within the reach are copied
  const ts::layout<3> quad(ts::extents{9, 11, 53}, 1, 4);
  ts::View<float, 3, ts::CudaSpace> in4("in4", quad), out4("out4", quad);
  CHECK(cu::view_requirement(cu::pipelined<>{}, in4, out4).empty());
  CHECK(agrees_on_layout(cu::pipelined<>{}, st, quad, 5));
  CHECK(cu::last_launch().policy == "cuda:pipelined");
  // vector_streaming writes 16-byte vectors too: an aligned input with an unaligned
  // output is refused, naming the output
  CHECK(cu::view_requirement(cu::vector_streaming<>{}, in4, out4).empty());
  CHECK(cu::view_requirement(cu::pipelined<>{}, in4, out).empty());
  CHECK_THROWS_WITH_AS(ts::apply(cu::vector_streaming<>{}, st, in4, out), doctest::Contains("'out' (interior 9x11x53"),
                       ts::unsupported_error);
  CHECK(agrees_on_layout(cu::vector_streaming<>{}, st, quad, 6));
  CHECK(cu::last_launch().policy == "cuda:vector-streaming");
}

TEST_CASE("compare on the device equals compare on the host, NaN included") {
  TESSERA_REQUIRE_CUDA_DEVICE();
  ts::View<double, 3> a_h("a", ts::extents{13, 7, 29}, 2), b_h("b", ts::extents{13, 7, 29}, 1);
  fill_random(a_h, 3);
  fill_random(b_h, 4);
  a_h(5, 3, 17) = 40.0;  // the worst point
  auto a = to_device(a_h, "a_d");
  auto b = to_device(b_h, "b_d");
  const auto dev = ts::compare(a, b);
  const auto host = ts::compare(a_h, b_h);
  CHECK(dev.points == host.points);
  CHECK(dev.max_abs_error == host.max_abs_error);
  CHECK(dev.max_rel_error == doctest::Approx(host.max_rel_error).epsilon(1e-14));
  CHECK(dev.rel_l2_error == doctest::Approx(host.rel_l2_error).epsilon(1e-12));
  CHECK(dev.worst_index_string() == "(5, 3, 17)");
  CHECK(dev.nonfinite == 0);
  b_h(12, 6, 28) = std::numeric_limits<double>::quiet_NaN();
  b_h(2, 0, 1) = std::numeric_limits<double>::infinity();
  ts::deep_copy(b, b_h);
  const auto nan = ts::compare(a, b);
  CHECK(nan.nonfinite == 2);
  CHECK(nan.worst_index_string() == "(2, 0, 1)");
  CHECK_FALSE(nan.passed(1e30));
  ts::View<float, 1, ts::CudaSpace> f("f", ts::extents{1000}, 0), g("g", ts::extents{1000}, 0);
  CHECK(ts::compare(f, g).max_abs_error == 0);
}

TEST_CASE("validate a CUDA policy against Kokkos, the portable automatic runs anywhere") {
  TESSERA_REQUIRE_CUDA_DEVICE();
  ts::View<float, 3> in_h("in", ts::extents{37, 29, 53}, 2);
  fill_random(in_h, 9);
  auto in = to_device(in_h, "in_d");
  const auto st = random_stencil<ts::star<3, 2>, float>(10);
  const auto r = ts::validate(cu::coarsened<>{}, st, in);
  CHECK(r.passed);
  CHECK(r.result.points == 37 * 29 * 53);
  // tessera::automatic: device views -> cuda::automatic, host views -> host::parallel
  ts::View<float, 3, ts::CudaSpace> out("out", in.layout());
  ts::apply(ts::automatic{}, st, in, out);
  // which candidate runs is measured (table or tuner), not fixed: any of them, on the GPU
  CHECK(cu::candidate_from_name(cu::last_launch().policy).has_value());
  ts::View<float, 3> out_h("out_h", in_h.layout()), ref("ref", in_h.layout());
  ts::apply(ts::automatic{}, st, in_h, ref);
  ts::deep_copy(out_h, out);
  CHECK(ts::compare(out_h, ref).max_abs_error <= 1e-6 * ts::sweep_scale(st, in_h));
  // the scale on the device equals the scale on the host
  CHECK(ts::sweep_scale(st, in) == ts::sweep_scale(st, in_h));
}

TEST_CASE("an allocation that cannot succeed names the label, the bytes and the free memory") {
  TESSERA_REQUIRE_CUDA_DEVICE();
  try {
    // rows of 1024 doubles are already whole 128-byte lines: no padding
    ts::View<double, 3, ts::CudaSpace> huge("huge_field", ts::extents{100000, 100000, 1024}, 0);
    FAIL("allocated 82 TB");
  } catch (const ts::allocation_error& e) {
    const std::string m = e.what();
    CHECK(m.find("'huge_field'") != std::string::npos);
    CHECK(m.find("81920000000000 bytes") != std::string::npos);
    CHECK(m.find("bytes free") != std::string::npos);
  }
}


