// Lowering (policy + shape + extents + device limits -> launch plan or reason), on the CPU.
#include <doctest/doctest.h>

#include <cstddef>
#include <string>
#include <type_traits>
#include <vector>

#include "../support/shapes_under_test.hpp"
#include "../support/test_support.hpp"
#include <tessera/tessera.hpp>

namespace ts = tessera;
namespace cu = tessera::cuda;

// cuda::automatic's roles, derived from the traits the strategies' units declare
// (candidates.hpp): a trait lost or added in a unit changes these.
static_assert(std::is_same_v<cu::automatic_default_strategy, cu::pipelined<>>);
static_assert(std::is_same_v<cu::automatic_point_default_strategy, cu::streaming<>>);
static_assert(std::is_same_v<cu::automatic_fusing_strategy, cu::temporal_blocking<>>);
static_assert(cu::automatic_fallbacks.size() == 2);
static_assert(cu::automatic_fallbacks[0] == cu::candidate_of<cu::shared_streaming<>>);
static_assert(std::is_same_v<cu::automatic_last_resort_strategy, cu::naive<>>);

namespace {
const cu::device_limits h100 = cu::device_limits::h100();
bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }
}  // namespace

TEST_CASE("plan: naive covers partial tiles with ceil-divided grids") {
  const auto p = cu::make_plan<ts::star<3, 1>, float>(cu::naive<>{}, ts::extents{37, 29, 53}, h100);
  REQUIRE(p.ok());
  CHECK(p.block[0] == 32);
  CHECK(p.block[1] == 8);
  CHECK(p.block[2] == 1);
  CHECK(p.grid[0] == 2);   // 53 / 32 -> 2
  CHECK(p.grid[1] == 4);   // 29 / 8  -> 4
  CHECK(p.grid[2] == 37);
  CHECK(p.shared_bytes == 0);
  // 1D folds the block into x; 2D folds z into y
  const auto p1 = cu::make_plan<ts::star<1, 1>, float>(cu::naive<>{}, ts::extents{101}, h100);
  CHECK(p1.block[0] == 256);
  CHECK(p1.grid[0] == 1);
  const auto p2 = cu::make_plan<ts::star<2, 1>, float>(cu::naive<16, 4, 2>{}, ts::extents{37, 53}, h100);
  CHECK(p2.block[1] == 8);
  CHECK(p2.grid[0] == 4);
  CHECK(p2.grid[1] == 5);
}

TEST_CASE("plan: tiled 3D uses the output tile as block, the tile and its halo staged") {
  const auto p = cu::make_plan<ts::star<3, 1>, double>(cu::tiled<>{}, ts::extents{37, 29, 53}, h100);
  REQUIRE(p.ok());
  CHECK(p.threads() == 512);
  CHECK((p.out_tile[0] == 8 && p.out_tile[1] == 8 && p.out_tile[2] == 8));
  CHECK(p.grid[0] == 7);  // ceil(53 / 8)
  CHECK(p.grid[1] == 4);  // ceil(29 / 8)
  CHECK(p.grid[2] == 5);  // ceil(37 / 8)
  CHECK(p.shared_bytes == 10 * 10 * 10 * sizeof(double));
  // an asymmetric shape stages the halo of its radius on every side (the view's ghost
  // width is at least that on every axis): skewed3d reaches 3 cells at most
  const auto s = cu::make_plan<ts::test::skewed3d, float>(cu::tiled<>{}, ts::extents{4, 4, 4}, h100);
  REQUIRE(s.ok());
  CHECK((s.out_tile[0] == 8 && s.out_tile[1] == 8 && s.out_tile[2] == 8));
  CHECK(s.shared_bytes == 14 * 14 * 14 * sizeof(float));
}

TEST_CASE("plan: a tile larger than the grid gives one block") {
  const auto p = cu::make_plan<ts::star<3, 1>, float>(cu::tiled<>{}, ts::extents{1, 1, 1}, h100);
  REQUIRE(p.ok());
  CHECK(p.grid[0] * p.grid[1] * p.grid[2] == 1);
  const auto c = cu::make_plan<ts::star<3, 1>, float>(cu::coarsened<>{}, ts::extents{3, 2, 5}, h100);
  REQUIRE(c.ok());
  CHECK(c.grid[0] * c.grid[1] * c.grid[2] == 1);
}

TEST_CASE("plan: a tile whose staged halo exceeds the device's shared memory is refused with the numbers") {
  // star<3,4> on an 8^3 tile stages 16^3 points: 32 KiB of doubles
  const auto ok = cu::make_plan<ts::star<3, 4>, double>(cu::tiled<>{}, ts::extents{37, 29, 53}, h100);
  REQUIRE(ok.ok());
  CHECK(ok.shared_bytes == 16 * 16 * 16 * sizeof(double));
  auto small = h100;
  small.name = "a 16 KiB device";
  small.shared_per_block = small.shared_per_block_optin = 16 * 1024;
  const auto p = cu::make_plan<ts::star<3, 4>, double>(cu::tiled<>{}, ts::extents{37, 29, 53}, small);
  REQUIRE_FALSE(p.ok());
  CHECK(contains(p.reason, "32 KiB"));
  CHECK(contains(p.reason, "a 16 KiB device"));
  std::string why;
  CHECK_FALSE(cu::can_implement<ts::star<3, 4>, double>(cu::tiled<>{}, ts::extents{8, 8, 8}, small, &why));
  CHECK(why == p.reason);
}

TEST_CASE("plan: blocks above 1024 threads are refused") {
  const auto p = cu::make_plan<ts::star<3, 1>, float>(cu::naive<64, 32, 1>{}, ts::extents{64, 64, 64}, h100);
  REQUIRE_FALSE(p.ok());
  CHECK(contains(p.reason, "2048 threads"));
  CHECK(contains(p.reason, "1024"));
  const auto t = cu::make_plan<ts::star<3, 1>, float>(cu::tiled<16, 16, 16>{}, ts::extents{64, 64, 64}, h100);
  REQUIRE_FALSE(t.ok());
  CHECK(contains(t.reason, "4096 threads"));
}

TEST_CASE("plan: shared memory above the device limit is refused, above 48 KiB opts in") {
  // coarsened star<3,4> double keeps 9 planes of 32x32: 72 KiB, above 48 KiB, below 227 KiB
  const auto p = cu::make_plan<ts::star<3, 4>, double>(cu::coarsened<>{}, ts::extents{64, 64, 64}, h100);
  REQUIRE(p.ok());
  CHECK(p.shared_bytes == 9 * 32 * 32 * 8);
  CHECK(p.needs_shared_opt_in);
  auto small = h100;
  small.name = "a 64 KiB device";
  small.shared_per_block_optin = 64 * 1024;
  const auto q = cu::make_plan<ts::star<3, 4>, double>(cu::coarsened<>{}, ts::extents{64, 64, 64}, small);
  REQUIRE_FALSE(q.ok());
  CHECK(contains(q.reason, "72 KiB"));
  CHECK(contains(q.reason, "a 64 KiB device"));
  // 1D tiled: the segment plus the halo
  const auto t1 = cu::make_plan<ts::star<1, 3>, float>(cu::tiled<>{}, ts::extents{5000}, h100);
  CHECK(t1.shared_bytes == (1024 + 6) * sizeof(float));
  CHECK(t1.grid[0] == 5);
}

TEST_CASE("plan: grids above the device's grid limits are refused") {
  const auto p = cu::make_plan<ts::star<3, 1>, float>(cu::naive<32, 8, 1>{}, ts::extents{70000, 1, 1}, h100);
  REQUIRE_FALSE(p.ok());
  CHECK(contains(p.reason, "grid dimension z = 70000"));
}

TEST_CASE("plan: register tiling refuses 2D boxes, skewed 2D shapes and 1D with a reason") {
  const auto b = cu::make_plan<ts::box<2, 1>, float>(cu::register_tiled<>{}, ts::extents{8, 8}, h100);
  REQUIRE_FALSE(b.ok());
  CHECK(contains(b.reason, "box<2,1>"));
  CHECK(contains(b.reason, "cuda::coarsened"));
  CHECK_FALSE(cu::make_plan<ts::test::corner2d, float>(cu::register_tiled<>{}, ts::extents{8, 8}, h100).ok());
  const auto one = cu::make_plan<ts::star<1, 1>, float>(cu::register_tiled<>{}, ts::extents{8}, h100);
  REQUIRE_FALSE(one.ok());
  CHECK(contains(one.reason, "1D"));
  // stars are fine, and register tiling keeps one plane in shared memory
  const auto s = cu::make_plan<ts::star<3, 4>, double>(cu::register_tiled<>{}, ts::extents{37, 29, 53}, h100);
  REQUIRE(s.ok());
  CHECK(s.shared_bytes == 32 * 32 * 8);
  CHECK(s.out_tile[0] == 24);
  CHECK(s.out_tile[2] == 32);
  CHECK(s.grid[2] == 2);  // ceil(37 / 32)
}

TEST_CASE("plan: register tiling of 3D boxes tiles outputs, a thread's outputs by the shape and element size") {
  // 32 x 32 outputs a block. Radius 2: 2 rows of 4 columns a thread in float (8 x 16
  // threads), of 2 in double (16 x 16); radius 1: 8 rows of a column in float, 4 in double
  const auto f = cu::make_plan<ts::box<3, 2>, float>(cu::register_tiled<>{}, ts::extents{37, 29, 53}, h100);
  REQUIRE(f.ok());
  CHECK(f.block[0] == 8);
  CHECK(f.block[1] == 16);
  CHECK(f.out_tile[0] == 32);
  CHECK(f.out_tile[1] == 32);
  CHECK(f.grid[0] == 2);  // ceil(53 / 32)
  CHECK(f.grid[1] == 1);
  CHECK(f.grid[2] == (37 + f.chunk - 1) / f.chunk);
  CHECK(f.shared_bytes == 0);  // its ring of planes is static shared memory
  const auto f2 = cu::make_plan<ts::box<3, 2>, double>(cu::register_tiled<>{}, ts::extents{37, 29, 53}, h100);
  REQUIRE(f2.ok());
  CHECK(f2.block[0] == 16);
  CHECK(f2.block[1] == 16);
  const auto d = cu::make_plan<ts::box<3, 1>, double>(cu::register_tiled<>{}, ts::extents{37, 29, 53}, h100);
  REQUIRE(d.ok());
  CHECK(d.block[0] == 32);
  CHECK(d.block[1] == 8);
  const auto d1 = cu::make_plan<ts::box<3, 1>, float>(cu::register_tiled<>{}, ts::extents{37, 29, 53}, h100);
  REQUIRE(d1.ok());
  CHECK(d1.block[0] == 32);
  CHECK(d1.block[1] == 4);
  // skewed 3D shapes take the same kernel
  CHECK(cu::make_plan<ts::test::skewed3d, float>(cu::register_tiled<>{}, ts::extents{8, 8, 8}, h100).ok());
  // a tile whose rows are not a multiple of a thread's is refused, naming the fix
  const auto odd = cu::make_plan<ts::box<3, 1>, float>(cu::register_tiled<32, 12>{}, ts::extents{8, 8, 8}, h100);
  REQUIRE_FALSE(odd.ok());
  CHECK(contains(odd.reason, "multiple"));
  CHECK(contains(odd.reason, "TileY"));
  // and so is one whose columns are not a multiple of a thread's (4 in float, radius 2)
  const auto narrow = cu::make_plan<ts::box<3, 2>, float>(cu::register_tiled<30, 32>{}, ts::extents{8, 8, 8}, h100);
  REQUIRE_FALSE(narrow.ok());
  CHECK(contains(narrow.reason, "TileX that is a multiple of 4"));
  // so is a tile of too many threads, or of planes too large for static shared memory
  CHECK(contains(cu::make_plan<ts::box<3, 1>, float>(cu::register_tiled<256, 64>{}, ts::extents{8, 8, 8}, h100).reason,
                 "threads a block"));
  CHECK(contains(cu::make_plan<ts::box<3, 2>, double>(cu::register_tiled<256, 8>{}, ts::extents{8, 8, 8}, h100).reason,
                 "48 KiB"));
}

TEST_CASE("plan: register tiling of boxes chooses planes a block for the busiest SM's time") {
  namespace d = ts::cuda::detail;
  // 256^3 in 32 x 32 tiles (64 a plane), 132 SMs of 2 blocks: 64 planes fill one wave of
  // 256 blocks (68 planes of FMAs), 32 two waves of 36, 16 four of 20
  CHECK(d::register_box_chunk(64, 256, 5, 132, 2) == 64);
  // 512^3 (256 tiles): 64 at most, waves coarser than that do not balance
  CHECK(d::register_box_chunk(256, 512, 5, 132, 2) == 64);
  // where an SM holds more blocks, shorter chunks fill it
  CHECK(d::register_box_chunk(64, 256, 5, 132, 8) == 16);
  // a grid too small for one wave takes the shortest chunk
  CHECK(d::register_box_chunk(1, 20, 3, 132, 2) == 8);
  // a chunk never exceeds what it covers by more than a doubling
  CHECK(d::register_box_chunk(1000, 12, 3, 132, 4) <= 16);
}

TEST_CASE("plan: 2D marching kernels march along y with a 1D block") {
  const auto p = cu::make_plan<ts::star<2, 2>, float>(cu::coarsened<>{}, ts::extents{37, 53}, h100);
  REQUIRE(p.ok());
  CHECK(p.block[0] == 256);
  CHECK(p.block[1] == 1);
  CHECK(p.out_tile[0] == 252);
  CHECK(p.out_tile[1] == 32);
  CHECK(p.grid[1] == 2);
  CHECK(p.shared_bytes == 5 * 256 * sizeof(float));
}

TEST_CASE("plan: shared_streaming stores a ring of planes, chunk fills the device, 1D is refused") {
  // star: only the centre plane is stored, 2 slots of (4 * 4 + 2) x (128 + 2)
  auto p = cu::make_plan<ts::star<3, 1>, float>(cu::shared_streaming<>{}, ts::extents{512, 512, 512}, h100);
  REQUIRE(p.ok());
  CHECK((p.block[0] == 128 && p.block[1] == 4 && p.block[2] == 1));
  CHECK((p.out_tile[0] == 128 && p.out_tile[1] == 16));
  CHECK(p.shared_bytes == 2 * 18 * 130 * sizeof(float));
  CHECK(p.chunk == 32);  // 32 planes per cell of reach; 4 x 32 x 16 blocks fill 132 SMs
  CHECK(p.grid[2] == 16);
  // box of radius 2: planes m-2 .. m+2 are read off-axis, 6 slots of 20 x 132 doubles
  p = cu::make_plan<ts::box<3, 2>, double>(cu::shared_streaming<>{}, ts::extents{512, 512, 512}, h100);
  REQUIRE(p.ok());
  CHECK(p.shared_bytes == 6 * 20 * 132 * sizeof(double));
  CHECK(p.needs_shared_opt_in);
  // a wide star starts from 128 planes; a small grid halves the chunk until it fills the SMs
  p = cu::make_plan<ts::star<3, 4>, float>(cu::shared_streaming<>{}, ts::extents{1024, 1024, 1024}, h100);
  CHECK(p.chunk == 128);
  p = cu::make_plan<ts::star<3, 1>, float>(cu::shared_streaming<>{}, ts::extents{64, 64, 64}, h100);
  CHECK(p.chunk == 8);
  CHECK(p.grid[2] == 8);
  // an explicit chunk is kept; 2D marches rows
  p = cu::make_plan<ts::star<2, 1>, float>(cu::shared_streaming<0, 0, 0, 16>{}, ts::extents{100, 1000}, h100);
  REQUIRE(p.ok());
  CHECK((p.block[0] == 128 && p.block[1] == 1));
  CHECK(p.out_tile[0] == 512);  // 128 threads x 4 columns
  CHECK(p.chunk == 16);
  CHECK(p.grid[0] == 2);
  CHECK(p.grid[1] == 7);
  CHECK(p.shared_bytes == 2 * 514 * sizeof(float));
  const auto one = cu::make_plan<ts::star<1, 1>, float>(cu::shared_streaming<>{}, ts::extents{100}, h100);
  REQUIRE_FALSE(one.ok());
  CHECK(contains(one.reason, "cuda::naive"));
  // a plane beyond 32-bit in-plane offsets is refused, naming the way out
  const auto huge = cu::make_plan<ts::star<3, 1>, float>(cu::shared_streaming<>{}, ts::extents{2, 50000, 50000}, h100);
  REQUIRE_FALSE(huge.ok());
  CHECK(contains(huge.reason, "32-bit"));
  CHECK(contains(huge.reason, "cuda::streaming"));
  // too much shared memory for the device is refused with the numbers
  const auto big = cu::make_plan<ts::box<3, 4>, double>(cu::shared_streaming<128, 8, 8>{}, ts::extents{64, 64, 64}, h100);
  REQUIRE_FALSE(big.ok());
  CHECK(contains(big.reason, "shared memory"));
}

TEST_CASE("plan: pipelined rings the shape's planes plus those in flight, x-halo in whole lines") {
  // 7-point fp32 runs on the point mainloop (the stencil as its evaluator): 128 x 2 threads
  // of 4 rows, a 128 x 8 tile; its ring holds 3 planes + 2 in flight + copies of the first
  // 2 (the windows' duplicates), each 10 rows x (32 + 128 + 32) floats
  auto p = cu::make_plan<ts::star<3, 1>, float>(cu::pipelined<>{}, ts::extents{512, 512, 512}, h100);
  REQUIRE(p.ok());
  CHECK(p.strategy == "pipelined");
  CHECK((p.block[0] == 128 && p.block[1] == 2 && p.block[2] == 1));
  CHECK((p.out_tile[0] == 128 && p.out_tile[1] == 8));
  CHECK(p.shared_bytes == 7 * 10 * 192 * sizeof(float));
  CHECK(p.needs_shared_opt_in);  // 52.5 KiB
  CHECK(p.grid[2] * p.chunk >= 512);
  CHECK(cu::make_plan<ts::star<3, 1>, float>(cu::pipelined<0, 0, 0, 0, 16>{}, ts::extents{512, 512, 512}, h100).chunk == 16);
  // fp64 keeps the kernel: 128 x 4 threads of 4 rows, 3 + 2 slots of 18 x (16 + 128 + 16)
  // doubles (112.5 KiB) leave two blocks an SM, which take short chunks
  p = cu::make_plan<ts::star<3, 1>, double>(cu::pipelined<>{}, ts::extents{512, 512, 512}, h100);
  CHECK((p.block[0] == 128 && p.block[1] == 4 && p.out_tile[1] == 16));
  CHECK(p.shared_bytes == 5 * 18 * 160 * sizeof(double));
  CHECK(p.chunk == 4);
  // explicit tile arguments are the mainloop's: 64 x 4 threads of 2 rows, 3 planes in flight
  p = cu::make_plan<ts::star<3, 1>, float>(cu::pipelined<64, 4, 2, 3>{}, ts::extents{512, 512, 512}, h100);
  CHECK((p.block[0] == 64 && p.block[1] == 4 && p.out_tile[1] == 8));
  CHECK(p.shared_bytes == 8 * 10 * (4 + 64 + 4) * sizeof(float));  // 64 floats: too narrow for whole lines
  // the 27-point box: 128 x 2 threads with 8 rows each, the same 128 x 16 tile and ring;
  // tile parameters given explicitly are kept
  p = cu::make_plan<ts::box<3, 1>, float>(cu::pipelined<>{}, ts::extents{512, 512, 512}, h100);
  REQUIRE(p.ok());
  CHECK((p.block[0] == 128 && p.block[1] == 2 && p.block[2] == 1));
  CHECK((p.out_tile[0] == 128 && p.out_tile[1] == 16));
  CHECK(p.shared_bytes == 4 * 18 * 192 * sizeof(float));
  CHECK(cu::make_plan<ts::box<3, 1>, float>(cu::pipelined<128, 4, 4>{}, ts::extents{512, 512, 512}, h100).block[1] == 4);
  CHECK(cu::make_plan<ts::box<3, 2>, float>(cu::pipelined<>{}, ts::extents{512, 512, 512}, h100).block[1] == 4);
  // a wider shape keeps 2 planes in flight: 5 + 2 slots of 20 x 192
  p = cu::make_plan<ts::star<3, 2>, float>(cu::pipelined<>{}, ts::extents{512, 512, 512}, h100);
  REQUIRE(p.ok());
  CHECK(p.shared_bytes == 7 * 20 * 192 * sizeof(float));
  CHECK(p.chunk == 8);  // two blocks an SM: short chunks
  // in fp64 its ring (175 KiB) leaves one block an SM: the plan's long chunks
  p = cu::make_plan<ts::star<3, 2>, double>(cu::pipelined<>{}, ts::extents{512, 512, 512}, h100);
  REQUIRE(p.ok());
  CHECK(p.shared_bytes == 7 * 20 * 160 * sizeof(double));
  CHECK(p.chunk == 64);
  // fp64: a line is 16 doubles; an explicit depth is kept
  p = cu::make_plan<ts::star<3, 2>, double>(cu::pipelined<0, 0, 0, 1>{}, ts::extents{64, 64, 64}, h100);
  REQUIRE(p.ok());
  CHECK(p.shared_bytes == (5 + 1) * (16 + 4) * (16 + 128 + 16) * sizeof(double));
  // skewed3d reaches z -1..2 (4 planes, so 2 in flight), y -1..1, x -3..2 (a line each side)
  p = cu::make_plan<ts::test::skewed3d, float>(cu::pipelined<>{}, ts::extents{64, 64, 64}, h100);
  REQUIRE(p.ok());
  CHECK(p.shared_bytes == (4 + 2) * (16 + 2) * (32 + 128 + 32) * sizeof(float));
  // the 25-point star's deep ring (11 planes, 16-byte halo pieces: 143.6 KB) leaves one
  // block per SM, so its chunk stays at 128 planes where shared_streaming's halves to 64
  p = cu::make_plan<ts::star<3, 4>, float>(cu::pipelined<>{}, ts::extents{512, 512, 512}, h100);
  REQUIRE(p.ok());
  CHECK(p.shared_bytes == 11 * 24 * (4 + 128 + 4) * sizeof(float));
  CHECK(p.chunk == 128);
  CHECK(cu::make_plan<ts::star<3, 4>, float>(cu::shared_streaming<>{}, ts::extents{512, 512, 512}, h100).chunk == 64);
  // a ring beyond the device's shared memory is refused with the numbers
  const auto big = cu::make_plan<ts::star<3, 4>, double>(cu::pipelined<>{}, ts::extents{64, 64, 64}, h100);
  REQUIRE_FALSE(big.ok());
  CHECK(contains(big.reason, "shared memory"));
  // 2D 5-point (on the mainloop): 256 threads of 4 columns, a row of 1024 with its halo in
  // lines, 3 rows + 2 in flight + 2 duplicates
  p = cu::make_plan<ts::star<2, 1>, float>(cu::pipelined<>{}, ts::extents{100, 1000}, h100);
  REQUIRE(p.ok());
  CHECK((p.block[0] == 256 && p.block[1] == 1));
  CHECK(p.out_tile[0] == 1024);
  CHECK(p.grid[0] == 1);
  CHECK(p.shared_bytes == 7 * (32 + 1024 + 32) * sizeof(float));
  // the 2D 9-point box keeps the kernel: a row of 512 columns, 3 rows + 4 in flight
  p = cu::make_plan<ts::box<2, 1>, float>(cu::pipelined<>{}, ts::extents{100, 1000}, h100);
  REQUIRE(p.ok());
  CHECK((p.block[0] == 128 && p.block[1] == 1));
  CHECK(p.out_tile[0] == 512);
  CHECK(p.grid[0] == 2);
  CHECK(p.shared_bytes == 7 * (32 + 512 + 32) * sizeof(float));
  const auto one = cu::make_plan<ts::star<1, 1>, float>(cu::pipelined<>{}, ts::extents{100}, h100);
  REQUIRE_FALSE(one.ok());
  CHECK(contains(one.reason, "cuda::naive"));
  const auto huge = cu::make_plan<ts::star<3, 1>, float>(cu::pipelined<>{}, ts::extents{2, 50000, 50000}, h100);
  REQUIRE_FALSE(huge.ok());
  CHECK(contains(huge.reason, "32-bit"));
}

namespace {
// Point functions by their reach alone (the plan reads nothing else of them).
struct reads_two_one_beyond {  // div(k grad u): u and k, each a 7-point star
  using reach_type = ts::reach<1, 1>;
};
struct reads_three_one_beyond {
  using reach_type = ts::reach<1, 1, 0, 1>;
};
struct reads_one_four_beyond {  // acoustic_step: u_prev and c^2 at the point, u an 8th-order Laplacian
  using reach_type = ts::reach<0, 4, 0>;
};
struct reads_at_the_point {
  using reach_type = ts::reach<0, 0>;
};
template <class F, class T, int Rank, class Policy>
cu::launch_plan pipelined_point_plan(Policy, const ts::extents<Rank>& e) {
  using arguments = typename Policy::template point_mainloop<T, Rank>;
  return cu::detail::point_pipelined_plan<F, T, Rank, typename arguments::tile>(e, h100, arguments::chunk);
}
}  // namespace

// cuda::automatic's point functions: naive claims every function on grids below its bound,
// pipelined 3D fp32 ones reading at most two fields one point beyond from its bound; the
// rest run on the point default
constexpr std::size_t naive_below = cu::naive<>::automatic_points_below;
constexpr std::size_t pipelined_from = cu::pipelined<>::automatic_points_from;
static_assert(naive_below < pipelined_from);
template <class P, class F, class T = float, int Rank = 3>
constexpr bool claims(std::size_t cells) {
  return cu::automatic_point_claim<P, F, T, Rank>(cells);
}
static_assert(claims<cu::naive<>, reads_two_one_beyond>(naive_below - 1));
static_assert(claims<cu::naive<>, reads_one_four_beyond, double, 2>(1));
static_assert(!claims<cu::naive<>, reads_two_one_beyond>(naive_below));
static_assert(claims<cu::pipelined<>, reads_two_one_beyond>(pipelined_from));
static_assert(!claims<cu::pipelined<>, reads_two_one_beyond>(pipelined_from - 1));
static_assert(!claims<cu::pipelined<>, reads_two_one_beyond, double>(pipelined_from));
static_assert(!claims<cu::pipelined<>, reads_two_one_beyond, float, 2>(pipelined_from));
static_assert(!claims<cu::pipelined<>, reads_three_one_beyond>(pipelined_from));
static_assert(!claims<cu::pipelined<>, reads_one_four_beyond>(pipelined_from));
static_assert(!claims<cu::pipelined<>, reads_at_the_point>(pipelined_from));
static_assert(!claims<cu::streaming<>, reads_two_one_beyond>(pipelined_from));  // the default claims nothing

TEST_CASE("plan: pipelined's point-function tile follows the function's reach where its arguments are left 0") {
  static_assert(cu::detail::staged_fields<reads_three_one_beyond::reach_type> == 3);
  static_assert(cu::detail::staged_fields<ts::reach<0, 0>> == 0);
  const ts::extents<3> e{200, 130, 257};
  // two fields one point beyond: 128 x 2 threads of 4 rows (a 128 x 8 tile), each field's
  // ring 7 slots of 10 x (32 + 128 + 32) floats (whole-line halos)
  auto p = pipelined_point_plan<reads_two_one_beyond, float>(cu::pipelined<>{}, e);
  REQUIRE(p.ok());
  CHECK((p.block[0] == 128 && p.block[1] == 2 && p.out_tile[1] == 8));
  CHECK(p.shared_bytes == 2 * 7 * 10 * 192 * sizeof(float));
  // in doubles 2 rows a thread: 7 slots of 6 x (16 + 128 + 16)
  p = pipelined_point_plan<reads_two_one_beyond, double>(cu::pipelined<>{}, e);
  REQUIRE(p.ok());
  CHECK((p.block[0] == 128 && p.block[1] == 2 && p.out_tile[1] == 4));
  CHECK(p.shared_bytes == 2 * 7 * 6 * 160 * sizeof(double));
  // three such fields: 32 x 8 threads of 2 rows, 16-byte halo pieces (7 x 18 x 40 each)
  p = pipelined_point_plan<reads_three_one_beyond, float>(cu::pipelined<>{}, e);
  REQUIRE(p.ok());
  CHECK((p.block[0] == 32 && p.block[1] == 8 && p.out_tile[1] == 16));
  CHECK(p.shared_bytes == 3 * 7 * 18 * 40 * sizeof(float));
  // radius 4: 32 x 8 threads of 2 rows, 19 slots (9 + 2 in flight + 8 copies) of 24 x 40;
  // one row a thread in doubles
  p = pipelined_point_plan<reads_one_four_beyond, float>(cu::pipelined<>{}, e);
  REQUIRE(p.ok());
  CHECK((p.block[0] == 32 && p.block[1] == 8 && p.out_tile[1] == 16));
  CHECK(p.shared_bytes == 19 * 24 * 40 * sizeof(float));
  p = pipelined_point_plan<reads_one_four_beyond, double>(cu::pipelined<>{}, e);
  REQUIRE(p.ok());
  CHECK((p.block[0] == 32 && p.block[1] == 8 && p.out_tile[1] == 8));
  CHECK(p.shared_bytes == 19 * 16 * 40 * sizeof(double));
  // arguments given are kept, the rest still follow the reach
  p = pipelined_point_plan<reads_two_one_beyond, float>(cu::pipelined<64, 0, 3>{}, e);
  CHECK((p.block[0] == 64 && p.block[1] == 2 && p.out_tile[1] == 6));
  p = pipelined_point_plan<reads_one_four_beyond, float>(cu::pipelined<0, 16, 1>{}, e);
  CHECK((p.block[0] == 32 && p.block[1] == 16 && p.out_tile[1] == 16));
  // 2D: 128 threads of 4 columns, a 512-wide row
  p = pipelined_point_plan<reads_two_one_beyond, float>(cu::pipelined<>{}, ts::extents<2>{300, 1000});
  REQUIRE(p.ok());
  CHECK((p.block[0] == 128 && p.block[1] == 1 && p.out_tile[0] == 512));
}

TEST_CASE("plan: the blocks an SM holds come from the device's bounds, and from the driver once it answers") {
  // an SM of sm_86's size (1536 threads, 100 KiB of shared memory, 16 blocks)
  cu::device_limits small = h100;
  small.max_threads_per_multiprocessor = 1536;
  small.max_blocks_per_multiprocessor = 16;
  small.shared_per_multiprocessor = 100 * 1024;
  cu::launch_plan p;
  p.block[0] = 128, p.block[1] = 4;  // 512 threads
  CHECK(cu::detail::resident_blocks(p, h100) == 4);
  CHECK(cu::detail::resident_blocks(p, small) == 3);
  p.shared_bytes = 40 * 1024;  // + 1 KiB reserved: 5 fit 228 KiB, 2 fit 100 KiB
  CHECK(cu::detail::resident_blocks(p, h100) == 4);
  CHECK(cu::detail::resident_blocks(p, small) == 2);
  p.shared_bytes = 0;
  CHECK(cu::detail::resident_blocks(p, h100, 64) == 2);   // 64 registers x 512 threads: half the file
  CHECK(cu::detail::resident_blocks(p, h100, 255) == 1);  // never below one
  p.block[0] = 32, p.block[1] = 1;
  CHECK(cu::detail::resident_blocks(p, h100) == 32);  // the blocks bound
  CHECK(cu::detail::resident_blocks(p, small) == 16);
  cu::device_limits known = h100;
  known.kernel_blocks_per_sm = 3;  // the driver's answer wins over every bound
  CHECK(cu::detail::resident_blocks(p, known, 255) == 3);

  // pipelined's 13-point fp32 plan takes short chunks because it counts 2 blocks an SM; where
  // the driver says one, the plan is made again with long chunks, and says what it took
  const ts::extents<3> e{512, 512, 512};
  const auto plan_at = [&](const cu::device_limits& lim) {
    return cu::make_plan<ts::star<3, 2>, float>(cu::pipelined<>{}, e, lim);
  };
  const auto estimated = plan_at(h100);
  REQUIRE(estimated.ok());
  REQUIRE(estimated.resident_per_sm == 2);  // 105 KiB rings: 2 fit
  REQUIRE(estimated.chunk == 8);
  int asked = 0;
  const auto one = cu::detail::with_driver_residency(h100, plan_at, [&](const cu::launch_plan& q) {
    ++asked;
    CHECK(q.describe() == estimated.describe());  // asked about the kernel the estimate launches
    return 1;
  });
  CHECK(asked == 1);
  CHECK(one.resident_per_sm == 1);
  CHECK(one.chunk > 8);
  CHECK(one.describe() == cu::make_plan<ts::star<3, 2>, float>(cu::pipelined<>{}, e, [] {
                            auto l = h100;
                            l.kernel_blocks_per_sm = 1;
                            return l;
                          }()).describe());
  // an answer equal to the estimate, or none (0), keeps the plan
  CHECK(cu::detail::with_driver_residency(h100, plan_at, [](const cu::launch_plan&) { return 2; }).describe() ==
        estimated.describe());
  CHECK(cu::detail::with_driver_residency(h100, plan_at, [](const cu::launch_plan&) { return 0; }).describe() ==
        estimated.describe());
  // a plan that does not depend on it (naive) never asks
  const auto naive = cu::detail::with_driver_residency(
      h100, [&](const cu::device_limits& lim) { return cu::make_plan<ts::star<3, 1>, float>(cu::naive<>{}, e, lim); },
      [&](const cu::launch_plan&) { return ++asked; });
  CHECK(naive.resident_per_sm == 0);
  CHECK(asked == 1);
  // a fused pass halves its chunk until the grid gives each SM twice the blocks its threads
  // and shared memory allow, whatever the driver says of its registers: 4 steps of 384^3
  // fp32 (256 tiles of 24 x 24, 6 blocks an SM by shared memory) march 64 planes a block
  using P = cu::temporal_blocking<>;
  const ts::extents<3> e384{384, 384, 384};
  const auto fused = P::plan_steps<ts::star<3, 1>, float>(e384, h100, 4);
  CHECK(fused.chunk == 64);
  CHECK(fused.resident_per_sm == 0);  // nothing for the launch to ask the driver about
  cu::device_limits two = h100;
  two.kernel_blocks_per_sm = 2;
  CHECK(P::plan_steps<ts::star<3, 1>, float>(e384, two, 4).describe() == fused.describe());
  cu::device_limits small_sm = h100;  // an SM of a quarter the threads: 2 blocks, 528 aimed at
  small_sm.max_threads_per_multiprocessor = 512;
  // 768 blocks of 128 planes fill it: the 384 planes then split into 2 equal chunks of at
  // most 192 (each block's pipeline re-read over a longer chunk)
  CHECK(P::plan_steps<ts::star<3, 1>, float>(e384, small_sm, 4).chunk == 192);
  // 512^3: 3 chunks of 171 (the last 170), not 4 of 128; 200 planes: 2 of 100
  const auto e512 = P::plan_steps<ts::star<3, 1>, float>(ts::extents<3>{512, 512, 512}, h100, 4);
  CHECK((e512.chunk == 171 && e512.grid[2] == 3));
  CHECK(P::plan_steps<ts::star<3, 1>, float>(ts::extents<3>{200, 512, 512}, small_sm, 4).chunk == 100);
  // a chunk the grid halves keeps halving by powers of two (200 planes on a whole H100: 64);
  // a 2D pass keeps its power-of-two chunks
  CHECK(P::plan_steps<ts::star<3, 1>, float>(ts::extents<3>{200, 512, 512}, h100, 4).chunk == 64);
  const int rows_2d = P::plan_steps<ts::star<2, 1>, float>(ts::extents<2>{8192, 8192}, h100, 8).chunk;
  CHECK((rows_2d >= 64 && (rows_2d & (rows_2d - 1)) == 0));
}

TEST_CASE("plan: streaming has no halo threads and serves boxes, 1D is refused") {
  // the point mainloop's tile: rows of 256 bytes (64 floats) x 4, 32 bytes' worth of planes (8)
  const auto p = cu::make_plan<ts::box<3, 2>, float>(cu::streaming<>{}, ts::extents{37, 29, 53}, h100);
  REQUIRE(p.ok());
  CHECK((p.block[0] == 64 && p.block[1] == 4 && p.block[2] == 1));
  CHECK(p.out_tile[0] == 64);
  CHECK(p.out_tile[1] == 4);
  CHECK(p.out_tile[2] == 8);
  CHECK(p.chunk == 8);
  CHECK(p.grid[0] == 1);
  CHECK(p.grid[1] == 8);  // ceil(29 / 4)
  CHECK(p.grid[2] == 5);  // ceil(37 / 8)
  CHECK(p.shared_bytes == 0);
  // doubles: 32 x 8 threads, 4 planes; the policy's arguments override the defaults
  const auto d = cu::make_plan<ts::star<3, 1>, double>(cu::streaming<>{}, ts::extents{37, 29, 53}, h100);
  CHECK((d.block[0] == 32 && d.block[1] == 8 && d.chunk == 4));
  CHECK((d.grid[0] == 2 && d.grid[1] == 4 && d.grid[2] == 10));
  const auto t = cu::make_plan<ts::star<3, 1>, float>(cu::streaming<32, 8, 3>{}, ts::extents{37, 29, 53}, h100);
  CHECK((t.block[0] == 32 && t.block[1] == 8 && t.chunk == 3 && t.grid[2] == 13));
  // 2D: 256 threads along a row, 8 rows a block
  const auto r = cu::make_plan<ts::star<2, 1>, float>(cu::streaming<>{}, ts::extents{100, 1000}, h100);
  CHECK((r.block[0] == 256 && r.block[1] == 1 && r.out_tile[0] == 256 && r.chunk == 8));
  CHECK((r.grid[0] == 4 && r.grid[1] == 13));
  const auto one = cu::make_plan<ts::star<1, 2>, float>(cu::streaming<>{}, ts::extents{100}, h100);
  REQUIRE_FALSE(one.ok());
  CHECK(contains(one.reason, "cuda::naive"));
}

TEST_CASE("plan: vector_streaming gives a lane one 16-byte vector, a warp a row, short chunks, 1D is refused") {
  // 3D: a warp covers 32 x 4 floats of one row; 8 warps = 8 rows; 4 planes for a reach of 1
  const auto p = cu::make_plan<ts::star<3, 1>, float>(cu::vector_streaming<>{}, ts::extents{37, 29, 300}, h100);
  REQUIRE(p.ok());
  CHECK((p.block[0] == 32 && p.block[1] == 8 && p.block[2] == 1));
  CHECK((p.out_tile[0] == 128 && p.out_tile[1] == 8 && p.out_tile[2] == 4));
  CHECK(p.chunk == 4);
  CHECK(p.grid[0] == 3);   // ceil(300 / 128)
  CHECK(p.grid[1] == 4);   // ceil(29 / 8)
  CHECK(p.grid[2] == 10);  // ceil(37 / 4)
  CHECK(p.shared_bytes == 0);
  // the 25-point star is accumulated (kernels/vector_accumulate.cuh): a warp holds 2 rows
  // of 16 vectors; doubles: 2 a vector, so 32 a row; 4 warps (it reaches 4 rows along y)
  // = 8 rows; 8 planes a block
  const auto d = cu::make_plan<ts::star<3, 4>, double>(cu::vector_streaming<>{}, ts::extents{37, 29, 300}, h100);
  CHECK((d.out_tile[0] == 32 && d.out_tile[1] == 8 && d.block[1] == 4));
  CHECK(d.grid[0] == 10);  // ceil(300 / 32)
  CHECK(d.grid[1] == 4);   // ceil(29 / 8)
  CHECK(d.chunk == 8);
  CHECK(d.grid[2] == 5);  // ceil(37 / 8)
  const auto f = cu::make_plan<ts::star<3, 4>, float>(cu::vector_streaming<>{}, ts::extents{37, 29, 300}, h100);
  CHECK((f.out_tile[0] == 64 && f.out_tile[1] == 8 && f.out_tile[2] == 8));
  // the 19-point star too (3 planes either way); the 13-point keeps one row a warp
  const auto nineteen = cu::make_plan<ts::star<3, 3>, float>(cu::vector_streaming<>{}, ts::extents{37, 29, 300}, h100);
  CHECK((nineteen.out_tile[0] == 64 && nineteen.chunk == 8));
  const auto thirteen = cu::make_plan<ts::star<3, 2>, float>(cu::vector_streaming<>{}, ts::extents{37, 29, 300}, h100);
  CHECK((thirteen.out_tile[0] == 128 && thirteen.out_tile[1] == 4 && thirteen.chunk == 6));
  static_assert(cu::accumulates_by_column<ts::star<3, 4>> && cu::accumulates_by_column<ts::star<3, 3>>);
  static_assert(!cu::accumulates_by_column<ts::star<3, 2>> && !cu::accumulates_by_column<ts::box<3, 2>> &&
                !cu::accumulates_by_column<ts::star<2, 4>>);
  // 2D: the 8 warps are 8 x-segments of a row; the block marches `chunk` rows
  const auto two = cu::make_plan<ts::star<2, 1>, float>(cu::vector_streaming<>{}, ts::extents{37, 5000}, h100);
  CHECK((two.out_tile[0] == 1024 && two.out_tile[1] == 4));
  CHECK(two.grid[0] == 5);   // ceil(5000 / 1024)
  CHECK(two.grid[1] == 10);  // ceil(37 / 4)
  // explicit chunk and warps are kept
  const auto c = cu::make_plan<ts::box<3, 1>, float>(cu::vector_streaming<2, 7>{}, ts::extents{37, 29, 53}, h100);
  CHECK((c.block[1] == 2 && c.chunk == 7 && c.grid[2] == 6));
  const auto one = cu::make_plan<ts::star<1, 2>, float>(cu::vector_streaming<>{}, ts::extents{100}, h100);
  REQUIRE_FALSE(one.ok());
  CHECK(contains(one.reason, "cuda::naive"));
}

TEST_CASE("tuning table: parsed, nearest device class and size looked up, bad rows named, automatic plans the table's choice") {
  const std::string text =
      "# comment\n"
      "architecture,multiprocessors,bandwidth_tbs,shape_class,rank,radius,precision,points_log2,policy,note\n"
      "sm_90,132,3.35,star,3,1,float,27,cuda:shared-streaming,\"H100: 512x512x512, 0.77 of copy\"\n"
      "sm_90,132,3.35,star,3,1,float,24,cuda:naive,\n"
      "sm_90,132,3.35,star,3,1,double,27,cuda:naive,\n"
      "sm_80,108,2.04,star,3,1,float,27,cuda:streaming,\n";
  const auto t = cu::parse_tuning_table(text, "t.csv");
  REQUIRE(t.size() == 4);
  const cu::device_class h100_class = cu::class_of(h100), h200_class{90, 132, 4.8}, a100_class{80, 108, 2.04};
  CHECK(h100_class.sm == 90);
  CHECK(h100_class.to_string() == "sm_90, 132 SMs, 3.35 TB/s");
  CHECK(cu::points_log2(512.0 * 512 * 512) == 27);
  CHECK(cu::points_log2(256.0 * 256 * 256) == 24);
  CHECK(cu::points_log2(1) == 0);
  // the row of the nearest measured size applies
  CHECK(cu::lookup(t, cu::make_tuning_key<ts::star<3, 1>, float>(h100_class, 512.0 * 512 * 512)) ==
        cu::candidate_of<cu::shared_streaming<>>);
  CHECK(cu::lookup(t, cu::make_tuning_key<ts::star<3, 1>, float>(h100_class, 1024.0 * 1024 * 1024)) ==
        cu::candidate_of<cu::shared_streaming<>>);
  CHECK(cu::lookup(t, cu::make_tuning_key<ts::star<3, 1>, float>(h100_class, 256.0 * 256 * 256)) == cu::candidate_of<cu::naive<>>);
  CHECK(cu::lookup(t, cu::make_tuning_key<ts::star<3, 1>, float>(h100_class, 64.0 * 64 * 64)) == cu::candidate_of<cu::naive<>>);
  CHECK(cu::lookup(t, cu::make_tuning_key<ts::star<3, 1>, double>(h100_class, 100)) == cu::candidate_of<cu::naive<>>);
  CHECK_FALSE(cu::lookup(t, cu::make_tuning_key<ts::star<3, 2>, float>(h100_class, 100)));
  // a class the table never measured takes the nearest class's rows: an H200 (same
  // architecture, more bandwidth) the H100's, not the other architecture's; another Ampere
  // the A100's; a newer architecture the nearest compute capability's
  CHECK(cu::lookup(t, cu::make_tuning_key<ts::star<3, 1>, float>(h200_class, 512.0 * 512 * 512)) ==
        cu::candidate_of<cu::shared_streaming<>>);
  CHECK(cu::lookup(t, cu::make_tuning_key<ts::star<3, 1>, float>(a100_class, 512.0 * 512 * 512)) ==
        cu::candidate_of<cu::streaming<>>);
  CHECK(cu::lookup(t, cu::make_tuning_key<ts::star<3, 1>, float>(cu::device_class{86, 84, 0.94}, 256.0 * 256 * 256)) ==
        cu::candidate_of<cu::streaming<>>);
  CHECK(cu::lookup(t, cu::make_tuning_key<ts::star<3, 1>, float>(cu::device_class{100, 148, 8.0}, 256.0 * 256 * 256)) ==
        cu::candidate_of<cu::naive<>>);
  CHECK(cu::class_distance(h100_class, h100_class) == 0);
  CHECK(cu::class_distance(h200_class, h100_class) < cu::class_distance(h200_class, a100_class));
  CHECK(std::string(cu::shape_class_of<ts::box<2, 1>>::name) == "box");
  CHECK(std::string(cu::shape_class_of<ts::test::skewed3d>::name) == "custom");
  const std::string head = "h\n";
  CHECK_THROWS_WITH_AS(cu::parse_tuning_table(head + "sm_90,132,3.35,star,3,1,float,20,cuda:magic\n", "t.csv"),
                       doctest::Contains("t.csv:2: unknown policy 'cuda:magic'"), ts::invalid_argument_error);
  CHECK_THROWS_WITH_AS(cu::parse_tuning_table(head + "sm_90,132,3.35,star,three,1,float,20,cuda:naive\n", "t.csv"),
                       doctest::Contains("t.csv:2: rank, radius and points_log2"), ts::invalid_argument_error);
  CHECK_THROWS_WITH_AS(cu::parse_tuning_table(head + "sm_90,star\n", "t.csv"), doctest::Contains("t.csv:2: expected"),
                       ts::invalid_argument_error);
  for (const std::string bad : {"H100,132,3.35", "sm_9x,132,3.35", "sm_90,0,3.35", "sm_90,132,-1", "sm_90,132,fast"}) {
    CAPTURE(bad);
    CHECK_THROWS_WITH_AS(cu::parse_tuning_table(head + bad + ",star,3,1,float,20,cuda:naive\n", "t.csv"),
                         doctest::Contains("t.csv:2: architecture, multiprocessors and bandwidth_tbs"),
                         ts::invalid_argument_error);
  }
  CHECK_NOTHROW(cu::builtin_tuning_table());
  for (const auto& e : cu::builtin_tuning_table()) CHECK((e.key.device.sm >= 10 && e.key.device.multiprocessors >= 1));
  // automatic plans the shipped table's choice without a GPU: on the nominal H100 and on a
  // device of another architecture alike (the nearest class's rows)
  const auto shipped = *cu::lookup(cu::builtin_tuning_table(), cu::make_tuning_key<ts::star<3, 1>, float>(h100_class, 64.0 * 64 * 64));
  std::string shipped_strategy;
  cu::with_candidate(shipped, [&](auto policy) {
    shipped_strategy = cu::make_plan<ts::star<3, 1>, float>(policy, ts::extents{64, 64, 64}, h100).strategy;
  });
  cu::device_limits other = h100;
  other.name = "another GPU";
  other.compute_major = 8;
  other.multiprocessors = 108;
  other.memory_bandwidth_tbs = 2.0;
  for (const auto& lim : {h100, other}) {
    CAPTURE(lim.name);
    CHECK(cu::make_plan<ts::star<3, 1>, float>(cu::automatic{}, ts::extents{64, 64, 64}, lim).strategy == shipped_strategy);
  }
  // a case no row has (a custom shape) takes the default rule
  CHECK(cu::make_plan<ts::test::skewed3d, float>(cu::automatic{}, ts::extents{64, 64, 64}, h100).strategy == "pipelined");
  CHECK(cu::make_plan<ts::star<1, 1>, float>(cu::automatic{}, ts::extents{100}, h100).strategy == "naive");
}

// --- the one list of strategies (cuda/strategies.hpp) and what is derived from it ------

TEST_CASE("strategies: every listed strategy is recognised with any tiles, named once, and planned by its unit") {
  std::vector<std::string> names;
  ts::for_each_type(cu::strategies{}, [&](auto policy) {
    using P = decltype(policy);
    static_assert(cu::kernel_policy<P>, "a listed strategy is a kernel policy");
    static_assert(std::is_same_v<cu::strategy_of_t<P>, P>, "the list holds each strategy with default tiles");
    static_assert(P::template reaches<ts::CudaSpace> && !P::template reaches<ts::HostSpace>);
    const std::string name = P::name();
    INFO(name);
    CHECK(name.rfind("cuda:", 0) == 0);
    for (const auto& seen : names) CHECK(seen != name);
    names.push_back(name);
    CHECK(name.size() > 5);
    // every strategy serves this case, with a launch the device takes that covers the grid
    const ts::extents<3> e{37, 29, 61};
    const auto p = cu::make_plan<ts::star<3, 1>, float>(policy, e, h100);
    INFO(p.describe());
    REQUIRE(p.ok());
    CHECK(p.threads() >= 32);
    CHECK(p.threads() <= h100.max_threads_per_block);
    CHECK(p.threads() % 32 == 0);
    CHECK(p.shared_bytes <= h100.shared_per_block_optin);
    CHECK(p.needs_shared_opt_in == (p.shared_bytes > h100.shared_per_block));
    for (int a = 0; a < 3; ++a) {
      CHECK(p.block[a] <= h100.max_block_dim[a]);
      CHECK(p.grid[a] <= h100.max_grid_dim[a]);
      CHECK(p.grid[a] * p.out_tile[a] >= e[2 - a]);  // the plan's (x, y, z) against the extents' (z, y, x)
    }
  });
  // other tilings of a listed strategy share its unit; anything else is not a kernel policy
  static_assert(cu::kernel_policy<cu::naive<16, 16>> && cu::kernel_policy<cu::pipelined<128, 2, 8, 1, 16>>);
  static_assert(std::is_same_v<cu::strategy_of_t<cu::vector_streaming<4, 8>>, cu::vector_streaming<>>);
  static_assert(!cu::kernel_policy<cu::automatic> && !cu::kernel_policy<ts::host::serial> && !cu::kernel_policy<int>);
}

TEST_CASE("strategies: automatic's candidates are the listed strategies that say so, each named by its policy") {
  std::size_t flagged = 0;
  ts::for_each_type(cu::strategies{}, [&](auto policy) {
    using P = decltype(policy);
    if constexpr (P::automatic_candidate) {
      ++flagged;
      const auto c = cu::candidate_of<P>;
      CHECK(cu::candidate_name(c) == P::name());
      REQUIRE(cu::candidate_from_name(P::name()).has_value());
      CHECK(*cu::candidate_from_name(P::name()) == c);
    } else {
      CHECK_FALSE(cu::candidate_from_name(P::name()).has_value());
    }
  });
  CHECK(flagged == cu::all_candidates.size());
  for (const auto& c : cu::all_candidates) {  // each candidate's name leads back to it alone
    REQUIRE(cu::candidate_from_name(cu::candidate_name(c)).has_value());
    CHECK(*cu::candidate_from_name(cu::candidate_name(c)) == c);
  }
  CHECK_FALSE(cu::candidate_from_name("cuda:automatic").has_value());
  // the table's policy column accepts exactly those names
  const std::string header = "architecture,multiprocessors,bandwidth_tbs,shape_class,rank,radius,precision,points_log2,policy\n";
  CHECK_THROWS_AS(cu::parse_tuning_table(header + "sm_90,132,3.35,star,3,1,float,27,cuda:tiled\n", "t"),
                  ts::invalid_argument_error);
  CHECK(cu::parse_tuning_table(header + "sm_90,132,3.35,star,3,1,float,27,cuda:vector-streaming\n", "t").size() == 1);
}

TEST_CASE("plan: persistent keeps the grid on chip, a box an SM, and refuses what does not fit by name") {
  using S = ts::star<3, 1>;
  using P = cu::persistent<>;
  static_assert(cu::has_fused_steps_v<P, S> && P::has_kernel<S> && !P::has_kernel<ts::box<3, 1>>);
  static_assert(P::tile<S>::rows_per_thread == 8 && cu::detail::persistent_rows<P::tile<S>, double> == 4);
  // 192^3 floats: a row of 192 threads, two of them a block (16 rows), 12 boxes along y;
  // 11 along z of 18 planes: 132 boxes, one an SM, 18 x 16 x 194 floats of shared memory
  const auto p = P::plan_steps<S, float>(ts::extents<3>{192, 192, 192}, h100, 100);
  REQUIRE(p.ok());
  CHECK(p.block[0] == 192);
  CHECK(p.block[1] == 2);
  CHECK(p.out_tile[0] == 192);
  CHECK(p.out_tile[1] == 16);
  CHECK(p.out_tile[2] == 18);
  CHECK(p.grid[0] * p.grid[1] * p.grid[2] <= h100.multiprocessors);
  CHECK(p.grid[1] == 12);
  CHECK(p.shared_bytes == 18u * 16 * 194 * sizeof(float));
  CHECK(p.needs_shared_opt_in);
  // awkward extents: rows not a multiple of 32 (a warp past the row), boxes cut short
  const ts::extents<3> odd{37, 29, 300};
  const auto q = P::plan_steps<S, double>(odd, h100, 3);
  REQUIRE(q.ok());
  CHECK(q.block[0] == 320);  // 300 columns round up to whole warps
  CHECK(q.block[1] == 1);
  CHECK(q.out_tile[1] == 4);  // 8 rows a thread for floats, 4 for doubles
  CHECK(q.grid[1] * q.out_tile[1] >= 29);
  CHECK(q.grid[2] * q.out_tile[2] >= 37);
  CHECK(q.grid[1] * q.grid[2] <= h100.multiprocessors);
  // the planes spread evenly: no box holds more than one plane above the smallest
  CHECK(q.grid[2] * q.out_tile[2] - 37 < q.grid[2]);
  // refused, each with its reason: a shape it has no kernel for, a grid too large for the
  // SMs' shared memory, rows longer than a block, more steps than compiled
  CHECK(contains(P::plan_steps<ts::box<3, 1>, float>(odd, h100, 1).reason, "cuda::temporal_blocking"));
  CHECK(contains(P::plan_steps<ts::star<2, 1>, float>(ts::extents<2>{64, 64}, h100, 1).reason, "3D stars of radius 1"));
  const auto big = P::plan_steps<S, float>(ts::extents<3>{256, 256, 256}, h100, 1);
  CHECK(contains(big.reason, "does not fit on chip"));
  CHECK(contains(big.reason, "132 SMs"));
  CHECK_FALSE(P::plan_steps<S, double>(ts::extents<3>{192, 192, 192}, h100, 1).ok());
  CHECK(P::plan_steps<S, double>(ts::extents<3>{146, 146, 146}, h100, 1).ok());  // the largest double cube (README)
  CHECK_FALSE(P::plan_steps<S, double>(ts::extents<3>{147, 147, 147}, h100, 1).ok());
  CHECK_FALSE(P::plan_steps<S, float>(ts::extents<3>{193, 193, 193}, h100, 1).ok());  // 192^3: the largest float cube
  CHECK(contains(P::plan_steps<S, float>(ts::extents<3>{8, 8, 400}, h100, 1).reason, "400 columns"));
  CHECK(contains(P::plan_steps<S, float>(odd, h100, 4097).reason, "1 to 4096 steps"));
  CHECK_FALSE(P::plan_steps<S, float>(odd, h100, 0).ok());
  // apply's plan is the one-step pass
  CHECK(cu::make_plan<S, float>(P{}, odd, h100).describe() == P::plan_steps<S, float>(odd, h100, 1).describe());
  // MaxThreads caps the block: 192 threads hold one row of 192 columns (8 rows a box), 576 three
  using narrow = cu::persistent<0, 0, 0, 192>;
  using wide = cu::persistent<0, 0, 0, 576>;
  static_assert(narrow::tile<S>::max_threads == 192 && wide::tile<S>::max_threads == 576 && P::tile<S>::max_threads == 384);
  const ts::extents<3> e160{160, 160, 192};
  const auto pn = narrow::plan_steps<S, float>(e160, h100, 10), pw = wide::plan_steps<S, float>(e160, h100, 10);
  REQUIRE(pn.ok());
  REQUIRE(pw.ok());
  CHECK(pn.block[0] * pn.block[1] == 192);
  CHECK(pn.out_tile[1] == 8);
  CHECK(pw.block[0] * pw.block[1] == 576);
  CHECK(pw.out_tile[1] == 24);
  CHECK(contains(narrow::plan_steps<S, float>(ts::extents<3>{8, 8, 200}, h100, 1).reason, "at most 192 a block"));
}

// persistent has no grid barrier: before a step a box waits only for the boxes whose faces it
// reads. Its face buffer has two parities, so a box may overwrite the faces of step t once the
// boxes that read them have finished step t; that holds when every box it reads from reads it
// back, which is what this checks for every boundary kind and for awkward box geometries.
TEST_CASE("plan: persistent's boxes wait only for the boxes whose faces they read, and those read theirs") {
  namespace d = cu::detail;
  using B = ts::boundary;
  using bcs = ts::boundary_conditions<3>;
  const bcs kinds[] = {bcs::uniform(B::dirichlet(0.5)), bcs::uniform(B::periodic()), bcs::uniform(B::neumann()),
                       bcs::uniform(B::periodic()).set(1, B::neumann(), B::neumann()),
                       bcs::uniform(B::neumann()).set(0, B::periodic(), B::periodic()).set(1, B::dirichlet(), B::dirichlet()),
                       bcs::uniform(B::dirichlet()).set(0, B::neumann(), B::dirichlet())};
  struct geometry {
    ts::index_t nz, ny, nx;
    int box_rows, box_planes;
  };
  // 192^3's 16 x 18 boxes; boxes cut short along y and z; one box along y or z; one-row and
  // one-plane boxes; two boxes along an axis (a periodic partner on both sides)
  const geometry geometries[] = {{192, 192, 192, 16, 18}, {37, 29, 300, 4, 2}, {700, 29, 53, 48, 6},
                                 {5, 2, 3, 8, 1},         {10, 10, 10, 1, 1}, {9, 17, 8, 8, 5}};
  for (const bcs& bc : kinds) {
    for (const geometry& g : geometries) {
      CAPTURE(g.nz);
      CAPTURE(g.ny);
      d::persistent_beyond beyond[3][2];
      d::persistent_beyonds({g.nz, g.ny, g.nx}, ts::make_edge_rules<3>(std::optional(bc), 1), beyond);
      const int boxes_y = static_cast<int>((g.ny + g.box_rows - 1) / g.box_rows);
      const int boxes_z = static_cast<int>((g.nz + g.box_planes - 1) / g.box_planes);
      auto waits_of = [&](int yb, int zb) {
        return d::persistent_waits_of(yb, zb, boxes_y, g.box_rows, g.box_planes, g.ny, g.nz, beyond);
      };
      for (int zb = 0; zb < boxes_z; ++zb)
        for (int yb = 0; yb < boxes_y; ++yb) {
          const int me = zb * boxes_y + yb;
          const d::persistent_waits w = waits_of(yb, zb);
          REQUIRE(w.count <= 4);
          // one wait a face that is not fixed: interior faces, and periodic or Neumann faces
          int expected = 0;
          expected += yb > 0 || !beyond[1][0].fixed;
          expected += yb < boxes_y - 1 || !beyond[1][1].fixed;
          expected += zb > 0 || !beyond[0][0].fixed;
          expected += zb < boxes_z - 1 || !beyond[0][1].fixed;
          CHECK(w.count == expected);
          for (int i = 0; i < w.count; ++i) {
            const int b = w.box[i];
            REQUIRE(b >= 0);
            REQUIRE(b < boxes_y * boxes_z);
            if (b == me) continue;
            const d::persistent_waits back = waits_of(b % boxes_y, b / boxes_y);
            bool reads_me = false;
            for (int j = 0; j < back.count; ++j) reads_me = reads_me || back.box[j] == me;
            CHECK_MESSAGE(reads_me, "box " << me << " reads box " << b << ", which does not read it back");
          }
        }
    }
  }
  // an interior box of 192^3 waits for its four neighbours, a corner box under Dirichlet faces for two
  d::persistent_beyond fixed[3][2];
  d::persistent_beyonds({192, 192, 192}, ts::make_edge_rules<3>(std::optional<bcs>{}, 1), fixed);
  const auto inner = d::persistent_waits_of(3, 4, 12, 16, 18, 192, 192, fixed);
  REQUIRE(inner.count == 4);
  CHECK(inner.box[0] == 4 * 12 + 2);  // the row below
  CHECK(inner.box[1] == 3 * 12 + 3);  // the plane below
  CHECK(inner.box[2] == 4 * 12 + 4);  // the row above
  CHECK(inner.box[3] == 5 * 12 + 3);  // the plane above
  CHECK(d::persistent_waits_of(0, 0, 12, 16, 18, 192, 192, fixed).count == 2);
}

TEST_CASE("plan: temporal_blocking fuses up to its compiled steps, the halo grows with them, 1D is refused") {
  using S = ts::star<3, 1>;
  using P = cu::temporal_blocking<>;
  static_assert(P::tile<S>::steps == 4 && P::tile<S>::tile_x == 32 && P::tile<S>::tile_y == 32 &&
                P::tile<S>::rows == 4);
  static_assert(P::tile<ts::star<2, 1>>::rows == 1);  // a 2D tile is one row
  static_assert(P::tile<ts::star<2, 1>>::steps == 8 && P::tile<ts::star<2, 1>>::tile_x == 128 &&
                P::tile<ts::star<2, 1>>::strips == 1);
  static_assert(cu::has_fused_steps_v<P, S> && !cu::has_fused_steps_v<cu::streaming<>, S>);
  const ts::extents<3> e{150, 61, 53};
  for (int k = 1; k <= 4; ++k) {
    CAPTURE(k);
    const auto p = P::plan_steps<S, float>(e, h100, k);
    REQUIRE(p.ok());
    CHECK(p.block[0] == 32);
    CHECK(p.block[1] == 32 / 4);  // 4 rows a thread
    CHECK(p.out_tile[0] == 32 - 2 * k);  // the k-step halo on both sides
    CHECK(p.out_tile[1] == 32 - 2 * k);
    CHECK(p.grid[0] == (53 + p.out_tile[0] - 1) / p.out_tile[0]);
    CHECK(p.grid[1] == (61 + p.out_tile[1] - 1) / p.out_tile[1]);
    CHECK(p.grid[2] * p.chunk >= 150);
    CHECK(p.chunk >= 4 * k * 3);  // never below 4x the pipeline: k * (reach + 1) planes
    // a star publishes a double-buffered centre plane per level below k, with a border of
    // the reach around the tile
    CHECK(p.shared_bytes == std::size_t(k) * 2 * 34 * 34 * sizeof(float));
  }
  // apply's plan is the one-step pass
  CHECK(cu::make_plan<S, float>(P{}, e, h100).describe() == P::plan_steps<S, float>(e, h100, 1).describe());
  // a box reads its neighbours' other planes, but only the newest of each as it arrives
  // (partial sums): each level publishes one double-buffered plane, as a star does. With a
  // tile named, the one-column pass:
  CHECK(cu::temporal_blocking<2, 32, 32, 4>::plan_steps<ts::box<3, 1>, double>(e, h100, 2).shared_bytes ==
        2u * 2 * 34 * 34 * sizeof(double));
  // with none, the register-tile pass (detail::box_tile): 256 threads of 2 rows x one
  // 16-byte vector, level 0 in a ring of 4 planes and a double-buffered plane a level below
  // k, rows of a vector's border a side; the left halo rounded up to whole vectors
  static_assert(P::tile<ts::box<3, 1>>::steps == 2 && P::tile<ts::box<3, 1>>::box_tile);  // a box fuses 2 by default
  static_assert(!cu::temporal_blocking<2, 32, 32, 4>::tile<ts::box<3, 1>>::box_tile);
  const auto bd = P::plan_steps<ts::box<3, 1>, double>(e, h100, 2);
  REQUIRE(bd.ok());
  CHECK(bd.block[0] == 16);
  CHECK(bd.block[1] == 16);
  CHECK(bd.out_tile[0] == 32 - 2 - 2);
  CHECK(bd.out_tile[1] == 32 - 2 - 2);
  CHECK(bd.shared_bytes == (4u + 2) * 36 * 34 * sizeof(double) + 36 * sizeof(int));  // and the column map
  CHECK(bd.chunk >= 4 * 2 * 3);  // never below 4x the pipeline: k * (z reach + 1) planes
  CHECK(bd.grid[2] * bd.chunk >= 150);
  // in float a tile of 64 x 32 cells, 2 rows x 4 floats a thread: the left halo of 2
  // columns rounded up to a vector of 4
  const auto bf = P::plan_steps<ts::box<3, 1>, float>(e, h100, 2);
  REQUIRE(bf.ok());
  CHECK(bf.block[0] == 16);
  CHECK(bf.block[1] == 16);
  CHECK(bf.out_tile[0] == 56);  // 64 - 4 - 2, rounded down to whole vectors
  CHECK(bf.out_tile[1] == 28);
  CHECK(bf.grid[1] == 3);
  CHECK(bf.shared_bytes == (4u + 2) * 72 * 34 * sizeof(float) + 72 * sizeof(int));
  CHECK(cu::detail::box_tile<ts::box<3, 1>, float>::applies(2));
  const auto bf3 = cu::temporal_blocking<3>::plan_steps<ts::box<3, 1>, float>(e, h100, 3);
  REQUIRE(bf3.ok());
  CHECK(bf3.out_tile[0] == 56);  // (64 - 4 - 3) rounded down to whole vectors
  CHECK(bf3.out_tile[1] == 26);
  CHECK(bf3.shared_bytes == (4u + 4) * 72 * 34 * sizeof(float) + 72 * sizeof(int));
  const auto bd3 = cu::temporal_blocking<3>::plan_steps<ts::box<3, 1>, double>(e, h100, 3);
  REQUIRE(bd3.ok());
  CHECK(bd3.out_tile[0] == 24);  // (32 - 4 - 3) rounded down to whole vectors
  CHECK(bd3.out_tile[1] == 26);
  CHECK(bd3.shared_bytes == (4u + 4) * 36 * 34 * sizeof(double) + 36 * sizeof(int));
  // a box reaching 2 planes along z keeps the one-column pass (its partial sums would spill)
  CHECK(P::plan_steps<ts::box<3, 2>, double>(e, h100, 2).block[0] == 32);
  CHECK(P::plan_steps<ts::box<3, 2>, float>(e, h100, 2).block[0] == 32);
  CHECK_FALSE(cu::detail::box_tile<ts::box<3, 2>, double>::applies(2));
  CHECK_FALSE(cu::detail::box_tile<ts::box<3, 2>, float>::applies(2));
  CHECK(cu::detail::box_tile<ts::box<3, 1>, double>::applies(1));
  CHECK_FALSE(cu::detail::box_tile<ts::star<3, 1>, double>::applies(2));  // a star reads one plane in-plane
  CHECK_FALSE(cu::detail::box_tile<ts::star<3, 1>, float>::applies(2));
  // more steps than compiled, or a halo that eats the tile, are refused with the numbers
  const auto too_many = P::plan_steps<S, float>(e, h100, 5);
  CHECK(contains(too_many.reason, "1 to 4 steps"));
  CHECK(contains(too_many.reason, "temporal_blocking<5>"));
  CHECK(cu::temporal_blocking<5>::plan_steps<S, float>(e, h100, 5).ok());
  CHECK_FALSE(P::plan_steps<S, float>(e, h100, 0).ok());
  const auto eaten = cu::temporal_blocking<8, 16, 16>::plan_steps<S, float>(e, h100, 8);
  CHECK(contains(eaten.reason, "no output left"));
  CHECK(cu::temporal_blocking<8, 16, 16>::plan_steps<S, float>(e, h100, 7).out_tile[0] == 2);
  // 2D marches along y with warps of their own: a block of one strip of 128 columns,
  // keeping 128 - 16 as outputs at 8 steps; cuda::temporal_blocking<8, 128, 4>: four
  const auto p2 = P::plan_steps<ts::star<2, 1>, double>(ts::extents<2>{1000, 1500}, h100, 8);
  REQUIRE(p2.ok());
  CHECK(p2.block[0] == 32);
  CHECK(p2.block[1] == 1);
  CHECK(p2.shared_bytes == 0);
  CHECK(p2.out_tile[0] == 128 - 16);
  CHECK(p2.grid[0] == 14);  // 1500 / 112
  const auto p4 = cu::temporal_blocking<8, 128, 4>::plan_steps<ts::star<2, 1>, double>(ts::extents<2>{1000, 1500}, h100, 8);
  CHECK(p4.block[1] == 4);
  CHECK(p4.out_tile[0] == 4 * (128 - 16));
  CHECK(p4.grid[0] == 4);  // 1500 / 448
  CHECK(p2.grid[1] * p2.chunk >= 1000);
  CHECK(p2.chunk >= 4 * 8 * 3);  // 4x the pipeline: 8 levels of 3-row queues
  // a strip of 32 columns fusing 8 radius-2 steps keeps none, 7 keep 4
  CHECK(contains(cu::temporal_blocking<8, 32>::plan_steps<ts::star<2, 2>, float>(ts::extents<2>{50, 50}, h100, 8).reason,
                 "no output left"));
  CHECK(cu::temporal_blocking<8, 32, 1>::plan_steps<ts::star<2, 2>, float>(ts::extents<2>{50, 50}, h100, 7).out_tile[0] == 4);
  CHECK(contains(P::plan_steps<ts::star<1, 1>, float>(ts::extents<1>{100}, h100, 1).reason, "1D grid"));
}

TEST_CASE("plan: a fused pass's chunk grows to fill one wave of blocks, in 3D only where that pays") {
  using P = cu::temporal_blocking<>;
  // 2D (unguarded): 5-point fp32 8192^2, 8 steps, 12 one-warp blocks an SM: 74 strips of
  // 112 outputs, 21 chunks of 391 rows fill 1554 of the 1584 places
  const auto p2 = P::plan_steps<ts::star<2, 1>, float>(ts::extents<2>{8192, 8192}, h100, 8);
  REQUIRE(p2.ok());
  REQUIRE(p2.grid[0] == 74);
  const auto q2 = cu::detail::one_wave_chunk(p2, 24, 8192, 1, false, 12, 132);
  CHECK(q2.chunk == 391);
  CHECK(q2.out_tile[1] == 391);
  CHECK(q2.grid[1] == 21);
  CHECK(q2.grid[0] == p2.grid[0]);
  // a GPU the strips alone fill keeps the plan
  CHECK(cu::detail::one_wave_chunk(p2, 24, 8192, 1, false, 12, 6).chunk == p2.chunk);
  // a 3D plan re-chunked along z: the chunk, its outputs and the chunks change, the tiles stay
  const auto check_rechunked = [](const cu::launch_plan& q, const cu::launch_plan& p, int chunk, long long chunks) {
    CHECK(q.chunk == chunk);
    CHECK(q.out_tile[2] == chunk);
    CHECK(q.grid[2] == chunks);
    CHECK(q.grid[0] == p.grid[0]);
    CHECK(q.grid[1] == p.grid[1]);
  };
  // 3D fp32 256^3, 4 steps (pipeline 12 planes), 2 blocks an SM: 121 tiles of 24 x 24, the
  // plan's 4 chunks of 64 become 2 of 128 (242 of 264 places)
  const auto p3 = P::plan_steps<ts::star<3, 1>, float>(ts::extents<3>{256, 256, 256}, h100, 4);
  REQUIRE(p3.ok());
  REQUIRE(p3.grid[0] * p3.grid[1] == 121);
  REQUIRE(p3.chunk == 64);
  check_rechunked(cu::detail::one_wave_chunk(p3, 12, 256, 2, true, 2, 132), p3, 128, 2);
  // 3D fp32 192^3, 4 steps: 64 tiles, the plan's 3 chunks of 64 (192 blocks) leave 72 of
  // the 264 places idle; 4 chunks of 48 (256 blocks, each chunk 4x the pipeline) fill them.
  // 2D keeps a plan whose blocks fit (longer chunks only); with one block an SM the
  // plan's 192 blocks take two waves of 132, and one wave of longer chunks replaces them.
  const auto p4 = P::plan_steps<ts::star<3, 1>, float>(ts::extents<3>{192, 192, 192}, h100, 4);
  REQUIRE(p4.ok());
  REQUIRE(p4.grid[0] * p4.grid[1] == 64);
  REQUIRE(p4.chunk == 64);
  check_rechunked(cu::detail::one_wave_chunk(p4, 12, 192, 2, true, 2, 132), p4, 48, 4);
  CHECK(cu::detail::one_wave_chunk(p4, 12, 192, 2, false, 2, 132).describe() == p4.describe());
  CHECK(cu::detail::one_wave_chunk(p4, 12, 192, 2, true, 1, 132).chunk == 96);  // 132 places: 2 chunks of 96 (128 blocks)
  CHECK(cu::detail::one_wave_chunk(p4, 12, 192, 2, true, 2, 60).describe() == p4.describe());   // 120 places
  // guarded: a pipeline under 15% of the chunk (27-point box 512^3 in one column, 2 steps: 6 planes of
  // 64) keeps the plan, and so does one wave that fills under 90% of the places (fp64
  // 384^3, 2 steps: 196 tiles, one chunk each, for 264 places); unguarded, both grow
  const auto pb = cu::temporal_blocking<2, 32, 32, 4>::plan_steps<ts::box<3, 1>, float>(ts::extents<3>{512, 512, 512}, h100, 2);
  REQUIRE(pb.ok());
  REQUIRE(pb.chunk == 64);
  CHECK(cu::detail::one_wave_chunk(pb, 6, 512, 2, true, 6, 132).describe() == pb.describe());
  CHECK(cu::detail::one_wave_chunk(pb, 6, 512, 2, false, 6, 132).chunk == 256);  // 361 tiles, 792 places
  const auto pd = P::plan_steps<ts::star<3, 1>, double>(ts::extents<3>{384, 384, 384}, h100, 2);
  REQUIRE(pd.ok());
  REQUIRE(pd.grid[0] * pd.grid[1] == 196);
  REQUIRE(100 * 6 >= 15 * pd.chunk);  // the pipeline guard alone would let it grow
  CHECK(cu::detail::one_wave_chunk(pd, 6, 384, 2, true, 2, 132).describe() == pd.describe());
  CHECK(cu::detail::one_wave_chunk(pd, 6, 384, 2, false, 2, 132).chunk == 384);
}

TEST_CASE("edge rules: within the ghost layer the map reads what fill_ghosts writes, beyond it the rules repeat") {
  using cu::edge_rule;
  const ts::index_t n = 5, g = 2;
  for (ts::index_t i = -g; i < n + g; ++i) {
    CAPTURE(i);
    bool fixed = false;
    const auto w = cu::map_coordinate(i, n, g, edge_rule::wrap, edge_rule::wrap, fixed);
    CHECK_FALSE(fixed);
    CHECK(w == (i < 0 || i >= n ? ts::detail::ghost_source(i, n, ts::boundary_kind::periodic) : i));
    const auto m = cu::map_coordinate(i, n, g, edge_rule::mirror, edge_rule::mirror, fixed);
    CHECK_FALSE(fixed);
    CHECK(m == (i < 0 || i >= n ? ts::detail::ghost_source(i, n, ts::boundary_kind::neumann) : i));
    const auto f = cu::map_coordinate(i, n, g, edge_rule::fixed, edge_rule::fixed, fixed);
    CHECK(f == i);  // a fixed face reads its own ghost cell
    CHECK(fixed == (i < 0 || i >= n));
  }
  bool fixed = false;
  // far beyond: wrap is periodic, mirrors reflect again at the other face (period 2n),
  // fixed reads are clamped into the ghost layer
  CHECK(cu::map_coordinate(-13, n, g, edge_rule::wrap, edge_rule::wrap, fixed) == 2);
  CHECK(cu::map_coordinate(23, n, g, edge_rule::wrap, edge_rule::wrap, fixed) == 3);
  CHECK(cu::map_coordinate(-7, n, g, edge_rule::mirror, edge_rule::mirror, fixed) == 3);  // -7 -> 6 -> 3
  CHECK(cu::map_coordinate(12, n, g, edge_rule::mirror, edge_rule::mirror, fixed) == 2);  // 12 -> -3 -> 2
  CHECK_FALSE(fixed);
  CHECK(cu::map_coordinate(-9, n, g, edge_rule::fixed, edge_rule::wrap, fixed) == -2);
  CHECK(fixed);
  fixed = false;
  CHECK(cu::map_coordinate(-8, n, g, edge_rule::mirror, edge_rule::fixed, fixed) == 6);  // -8 -> 7 -> clamped
  CHECK(fixed);
  // the rules of a view: per virtual axis (2D fills the last two), none = every face fixed
  ts::boundary_conditions<2> bc;
  bc.set(0, ts::boundary::dirichlet(1), ts::boundary::neumann()).set(1, ts::boundary::periodic(), ts::boundary::periodic());
  const auto r = cu::make_edge_rules<2>(bc, 3);
  CHECK(r.face[1][0] == edge_rule::fixed);
  CHECK(r.face[1][1] == edge_rule::mirror);
  CHECK(r.face[2][0] == edge_rule::wrap);
  CHECK(r.face[2][1] == edge_rule::wrap);
  CHECK(r.ghost[1] == 3);
  CHECK(r.ghost[2] == 3);
  const auto none = cu::make_edge_rules<2>(std::nullopt, 1);
  CHECK(none.face[2][1] == edge_rule::fixed);
}

TEST_CASE("edge rules: a reflect face holds its wall fixed and reflects the cells beyond it, as a Dirichlet fill does") {
  using cu::edge_rule;
  const ts::index_t n = 5, g = 3;
  for (ts::index_t i = -g; i < n + g; ++i) {
    CAPTURE(i);
    bool fixed = false, odd = false;
    const auto m = cu::map_reflecting(i, n, g, edge_rule::reflect, edge_rule::reflect, fixed, odd);
    const bool wall = ts::detail::on_wall(i, n), beyond = (i < 0 || i >= n) && !wall;
    CHECK(fixed == wall);
    CHECK(odd == beyond);
    // beyond: the Dirichlet fill's source (it writes 2v - u there); the wall reads itself
    CHECK(m == (beyond ? ts::detail::ghost_source(i, n, ts::boundary_kind::dirichlet) : i));
  }
  // far beyond: reflected about each wall in turn, one flip a reflection
  bool fixed = false, odd = false;
  CHECK(cu::map_reflecting(-9, n, g, edge_rule::reflect, edge_rule::reflect, fixed, odd) == 3);  // -9 -> 7 -> 3
  CHECK_FALSE(odd);
  CHECK_FALSE(fixed);
  CHECK(cu::map_reflecting(-9, n, g, edge_rule::reflect, edge_rule::wrap, fixed, odd) == 2);  // -9 -> 7 -> wrapped
  CHECK(odd);
  // the conditions under which a pass may reflect: a reach past the wall, one wall value,
  // coefficients mirrored along the axes with walls (and Neumann faces)
  using S = ts::star<2, 2>;  // centre, y -1 +1 -2 +2, x -1 +1 -2 +2 (shape order)
  ts::stencil<S, double> st;
  for (int k = 0; k < st.size; ++k) st[k] = 0.1 * (1 + std::abs(S::points[k][0]) + 2 * std::abs(S::points[k][1]));
  using bcs = ts::boundary_conditions<2>;
  const auto walls = std::optional(bcs::uniform(ts::boundary::dirichlet(0.25)));
  CHECK(ts::fuses_across_walls(st, walls));
  CHECK_FALSE(ts::several_steps_exact(st, walls));
  auto two_values = *walls;
  two_values.set(1, ts::boundary::dirichlet(0.25), ts::boundary::dirichlet(0.5));
  CHECK_FALSE(ts::fuses_across_walls(st, std::optional(two_values)));
  auto periodic_x = *walls;
  periodic_x.set(1, ts::boundary::periodic(), ts::boundary::periodic());
  auto lopsided_x = st;
  for (int k = 0; k < st.size; ++k)
    if (S::points[k][1] == 1) lopsided_x[k] = 0.9;
  CHECK(ts::fuses_across_walls(lopsided_x, std::optional(periodic_x)));  // x wraps: its mirror does not matter
  CHECK_FALSE(ts::fuses_across_walls(lopsided_x, walls));
  CHECK_FALSE(ts::fuses_across_walls(st, std::optional(bcs::uniform(ts::boundary::periodic()))));  // no wall
  ts::stencil<ts::star<2, 1>, double> five(ts::star<2, 1>{}, {-4.0, 1.0, 1.0, 1.0, 1.0});
  CHECK_FALSE(ts::fuses_across_walls(five, walls));  // reach 1 reads only the wall: several_steps_exact fuses it
  // the rules: Dirichlet faces reflect, with the wall value and the shift 2v (1 - sum of coefficients)
  const auto r = ts::with_reflected_walls(ts::make_edge_rules<2>(std::optional(periodic_x), 2), st, std::optional(periodic_x));
  CHECK(r.face[1][0] == edge_rule::reflect);
  CHECK(r.face[1][1] == edge_rule::reflect);
  CHECK(r.face[2][0] == edge_rule::wrap);
  CHECK(r.face[0][0] == edge_rule::fixed);  // the virtual axis a 2D grid lacks
  CHECK(r.wall == 0.25);
  double sum = 0;
  for (int k = 0; k < st.size; ++k) sum += st[k];
  CHECK(r.reflect_shift == doctest::Approx(2 * 0.25 * (1 - sum)));
  // fixed faces (a neighbour's halo: mpi's pass_conditions) are read as they are: never a
  // wall, never reflected, whatever their reach
  auto halo_x = *walls;
  halo_x.set(1, ts::boundary::fixed(), ts::boundary::fixed());
  CHECK(ts::fuses_across_walls(st, std::optional(halo_x)));  // the y walls still reflect
  const auto h = ts::with_reflected_walls(ts::make_edge_rules<2>(std::optional(halo_x), 2), st, std::optional(halo_x));
  CHECK(h.face[1][0] == edge_rule::reflect);
  CHECK(h.face[2][0] == edge_rule::fixed);
  CHECK(h.face[2][1] == edge_rule::fixed);
  const auto halos = std::optional(bcs::uniform(ts::boundary::fixed()));
  CHECK_FALSE(ts::reads_beyond_dirichlet_wall(halos, 2));
  CHECK(ts::several_steps_exact(st, halos));
  CHECK_FALSE(ts::fuses_across_walls(st, halos));
  CHECK(cu::fused_steps(cu::temporal_blocking<>{}, st, ts::extents<2>{40, 40}, halos) ==
        cu::temporal_blocking<>::tile<S>::steps);
}

TEST_CASE("edge rules: several steps fuse under a Neumann face only with coefficients mirrored along its axis") {
  using S = ts::star<2, 1>;  // centre, y -1, y +1, x -1, x +1
  ts::stencil<S, double> st(S{}, {-4.0, 1.0, 1.0, 0.5, 0.7});
  ts::boundary_conditions<2> neumann_y;
  neumann_y.set(0, ts::boundary::neumann(), ts::boundary::dirichlet(0)).set(1, ts::boundary::periodic(),
                                                                             ts::boundary::periodic());
  CHECK(cu::mirror_symmetric(st, neumann_y));  // symmetric in y, not in x (x is periodic)
  auto neumann_x = neumann_y;
  neumann_x.set(1, ts::boundary::neumann(), ts::boundary::neumann());
  CHECK_FALSE(cu::mirror_symmetric(st, neumann_x));
  CHECK(cu::mirror_symmetric(st, std::nullopt));
  const ts::extents<2> e{100, 100};
  CHECK(cu::fused_steps(cu::temporal_blocking<>{}, st, e, neumann_y) == 8);
  CHECK(cu::fused_steps(cu::temporal_blocking<3>{}, st, e, neumann_y) == 3);
  CHECK(cu::fused_steps(cu::temporal_blocking<>{}, st, e, neumann_x) == 1);
  // without conditions each view keeps its own ghosts: one step per pass
  CHECK(cu::fused_steps(cu::temporal_blocking<>{}, st, e, std::nullopt) == 1);
  // a box's corners must mirror too
  ts::stencil<ts::box<2, 1>, float> b;
  for (int k = 0; k < b.size; ++k) b[k] = 1;
  CHECK(cu::mirror_symmetric(b, neumann_x));
  b[0] = 2;  // the (-1, -1) corner
  CHECK_FALSE(cu::mirror_symmetric(b, neumann_x));
}

TEST_CASE("fusion table: parsed, bad rows named, automatic fuses only what a row measured faster") {
  const std::string header =
      "architecture,multiprocessors,bandwidth_tbs,shape_class,rank,radius,precision,points_log2,steps,steps_refilled,"
      "policy,tile,note\n";
  const auto t = cu::parse_fusion_table(header +
                                            "# comment\nsm_90,132,3.35,star,3,1,float,27,4,,,,\"note, with comma\"\n"
                                            "sm_90,132,3.35,star,3,1,float,20,1\nsm_90,132,3.35,box,3,1,float,20,1,1\n"
                                            "sm_90,132,3.35,star,3,1,float,20,4096,,cuda:persistent,,n\n"
                                            "sm_90,132,3.35,star,3,1,float,26,4,,,64x32,n\n"
                                            "sm_90,132,3.35,star,3,1,float,25,4,,cuda:temporal-blocking,64x32\n",
                                        "t");
  REQUIRE(t.size() == 6);
  CHECK(t[0].steps == 4);
  CHECK_FALSE(t[0].steps_refilled.has_value());  // empty: as steps
  CHECK_FALSE(t[1].steps_refilled.has_value());  // no column: as steps
  CHECK(t[2].steps_refilled == 1);
  // the policy column: empty is the first fuser (temporal blocking), a name picks that fuser
  CHECK(cu::fuser_name(t[0].fuser) == cu::temporal_blocking<>::name());
  CHECK(cu::fuser_name(t[3].fuser) == cu::persistent<>::name());
  CHECK(t[3].steps == 4096);
  // the tile column: one of the strategy's other tiles by name, with or without its policy
  const auto wide_index = ts::list_index_v<cu::temporal_blocking<0, 64, 32>, cu::automatic_fusers>;
  REQUIRE(wide_index < cu::automatic_fusers::size);
  CHECK(t[4].fuser == wide_index);
  CHECK(t[5].fuser == wide_index);
  CHECK(cu::fuser_name(wide_index) == cu::temporal_blocking<>::name() + " 64x32");
  CHECK(t[0].fuser != wide_index);
  const cu::device_class x{90, 132, 3.35};
  CHECK(cu::lookup(t, cu::make_tuning_key<ts::star<3, 1>, float>(x, 512.0 * 512 * 512)) == 4);
  CHECK(cu::lookup(t, cu::make_tuning_key<ts::star<3, 1>, float>(x, 64.0 * 64 * 64)) == 1);  // nearest: 2^20
  CHECK_FALSE(cu::lookup(t, cu::make_tuning_key<ts::star<3, 1>, double>(x, 1e8)).has_value());
  for (const std::string bad : {"sm_90,132,3.35,star,3,1,float,27,0", "sm_90,132,3.35,star,3,1,float,27,4097",
                                "sm_90,132,3.35,star,3,1,float,27,4x", "sm_90,132,3.35,star,3,1,float,27,",
                                "sm_90,132,3.35,star,3,1,float,27", "sm_90,132,3.35,star,3,1,float,27,4,\"a note\"",
                                "sm_90,132,3.35,star,3,1,float,27,4,-1", "sm_90,132,3.35,star,3,1,float,27,4,4097,,n",
                                "sm_90,132,3.35,star,3,1,float,27,4,,\"a note\"",
                                // a note where the tile goes (the columns before tile were added)
                                "sm_90,132,3.35,star,3,1,float,27,4,,,\"a note\"",
                                "sm_90,132,3.35,star,3,1,float,27,4,,,48x32,n",
                                "sm_90,132,3.35,star,3,1,float,27,4,,cuda:persistent,64x32,n"}) {
    CAPTURE(bad);
    const auto msg = ts::test::message_of<ts::invalid_argument_error>(
        [&] { cu::parse_fusion_table(header + bad + "\n", "f.csv"); });
    CHECK(contains(msg, "f.csv:2:"));
  }
  {  // a policy that is not a fuser is refused, naming those that are
    const auto msg = ts::test::message_of<ts::invalid_argument_error>(
        [&] { cu::parse_fusion_table(header + "sm_90,132,3.35,star,3,1,float,27,4,,cuda:naive,n\n", "f.csv"); });
    CHECK(contains(msg, "unknown policy 'cuda:naive'"));
    CHECK(contains(msg, cu::persistent<>::name()));
    CHECK(contains(msg, cu::temporal_blocking<>::name()));
  }
  {  // a tile the policy does not offer is refused, naming the fusers with their tiles
    const auto msg = ts::test::message_of<ts::invalid_argument_error>(
        [&] { cu::parse_fusion_table(header + "sm_90,132,3.35,star,3,1,float,27,4,,cuda:persistent,64x32,n\n", "f.csv"); });
    CHECK(contains(msg, "unknown tile '64x32' for cuda:persistent"));
    CHECK(contains(msg, cu::temporal_blocking<>::name() + " 64x32"));
  }
  // the shipped table parses, and automatic follows it within what temporal_blocking may fuse
  CHECK_FALSE(cu::builtin_fusion_table().empty());
  cu::device_limits lim = h100;
  const auto dirichlet = std::optional(ts::boundary_conditions<2>::uniform(ts::boundary::dirichlet(0)));
  ts::stencil<ts::star<2, 1>, float> five(ts::star<2, 1>{}, {-4.f, 1.f, 1.f, 1.f, 1.f});
  const int measured = *cu::lookup(cu::builtin_fusion_table(),
                                   cu::make_tuning_key<ts::star<2, 1>, float>(cu::class_of(lim), 8192.0 * 8192));
  CHECK(cu::fusion_choice(lim, five, ts::extents<2>{8192, 8192}, dirichlet) == (measured > 1 ? measured : 0));
  CHECK(cu::fusion_choice(lim, five, ts::extents<2>{8192, 8192}, std::nullopt) == 0);  // no conditions: a sweep a step
  // an H200 (same SMs, 4.8 TB/s) takes the H200 rows where they differ from the H100's:
  // fp64 3D fuses 2 steps there, 4 on an H100; fp32 2D 4096^2 box sweeps with pipelined
  const cu::device_class h200_class{90, 132, 4.8};
  const auto fused_512_double = [&](const cu::device_class& c) {
    return cu::lookup(cu::builtin_fusion_table(), cu::make_tuning_key<ts::star<3, 1>, double>(c, 512.0 * 512 * 512));
  };
  CHECK(fused_512_double(cu::class_of(lim)) == 4);
  CHECK(fused_512_double(h200_class) == 2);
  // the fp64 27-point box fuses 2 steps in register tiles (H200, perf/log/run-53.md); an
  // H100, with no row of its own for it, takes the nearest class's
  const auto fused_box_double = [&](const cu::device_class& c) {
    return cu::lookup(cu::builtin_fusion_table(), cu::make_tuning_key<ts::box<3, 1>, double>(c, 512.0 * 512 * 512));
  };
  CHECK(fused_box_double(h200_class) == 2);
  CHECK(fused_box_double(cu::class_of(lim)) == 2);
  // fp32 3D on an H200 by size: 192^3, 256^3 and 512^3 fuse 4 steps (192^3 its own row),
  // 128^3 sweeps a step, 160^3's first row is persistent's (whole passes on chip)
  const auto fused_float = [&](double n) {
    return cu::lookup(cu::builtin_fusion_table(), cu::make_tuning_key<ts::star<3, 1>, float>(h200_class, n * n * n));
  };
  CHECK(fused_float(192) == 4096);  // persistent first, then temporal blocking
  CHECK(fused_float(256) == 4);
  CHECK(fused_float(512) == 4);
  CHECK(fused_float(160) == 4096);
  CHECK(fused_float(128) == 1);
  // ... and where periodic or Neumann faces would add a fill to every step, 160^3 runs
  // persistent's passes (the faces inside them), and 128^3 (where step graphs make the fill
  // cheap) sweeps a step and fills
  auto h200 = cu::device_limits::h100();
  h200.memory_bandwidth_tbs = 4.8;
  const ts::stencil<ts::star<3, 1>, float> seven_f(ts::star<3, 1>{}, {-6.f, 1.f, 1.f, 1.f, 1.f, 1.f, 1.f});
  using bc3 = ts::boundary_conditions<3>;
  const auto faces = [](ts::boundary b) { return std::optional(bc3::uniform(b)); };
  const ts::extents<3> e160{160, 160, 160}, e128{128, 128, 128};
  constexpr int whole_pass = cu::persistent<>::tile<ts::star<3, 1>>::steps;
  CHECK(cu::fusion_choice(h200, seven_f, e160, faces(ts::boundary::periodic())) == whole_pass);
  CHECK(cu::fusion_choice(h200, seven_f, e160, faces(ts::boundary::neumann())) == whole_pass);
  CHECK(cu::fusion_choice(h200, seven_f, e160, std::optional(bc3::uniform(ts::boundary::dirichlet(0))
                                                                 .set(2, ts::boundary::periodic(), ts::boundary::periodic()))) == whole_pass);
  CHECK(cu::fusion_choice(h200, seven_f, e160, faces(ts::boundary::dirichlet(0))) ==
        cu::persistent<>::tile<ts::star<3, 1>>::steps);  // persistent's row: the whole pass on chip
  CHECK(cu::fusion_choice(h200, seven_f, e160, std::nullopt) == 0);
  CHECK(cu::fusion_choice(h200, seven_f, e128, faces(ts::boundary::periodic())) == 0);
  CHECK(cu::fusion_choice(h200, seven_f, ts::extents<3>{192, 192, 192}, faces(ts::boundary::periodic())) == whole_pass);
  // an H100 has no such row: its nearest (the 128^3 row) sweeps a step with its fill
  CHECK(cu::fusion_choice(cu::device_limits::h100(), seven_f, e160, faces(ts::boundary::periodic())) == 0);
  {  // 512^3 on an H200: the 27-point box and the 13-point star sweep a step under Dirichlet
     // faces and fuse 2 steps where a sweep a step would add a fill a step, except where only
     // one step a pass is exact (the 13-point star reads beyond a Dirichlet wall; unmirrored
     // coefficients under a Neumann face): a sweep and a fill a step there, not a pass a step
    const ts::extents<3> e512{512, 512, 512};
    ts::stencil<ts::box<3, 1>, float> box_f;
    for (int k = 0; k < box_f.size; ++k) box_f[k] = 1.f / box_f.size;
    ts::stencil<ts::star<3, 2>, float> thirteen_f;
    ts::stencil<ts::star<3, 2>, double> thirteen_d;
    for (int k = 0; k < thirteen_f.size; ++k) thirteen_f[k] = 1.f / 13, thirteen_d[k] = 1.0 / 13;
    for (const auto& periodic_or_neumann : {ts::boundary::periodic(), ts::boundary::neumann()}) {
      CHECK(cu::fusion_choice(h200, box_f, e512, faces(periodic_or_neumann)) == 2);
      // fp32 13-point: a sweep and a fill (the fill's x faces in whole sectors) beat 2-step passes
      CHECK(cu::fusion_choice(h200, thirteen_f, e512, faces(periodic_or_neumann)) == 0);
      CHECK(cu::fusion_choice(h200, thirteen_d, e512, faces(periodic_or_neumann)) == 2);
    }
    CHECK(cu::fusion_choice(h200, box_f, e512, faces(ts::boundary::dirichlet(0))) == 0);
    CHECK(cu::fusion_choice(h200, thirteen_f, e512, faces(ts::boundary::dirichlet(0))) == 0);
    CHECK(cu::fusion_choice(h200, thirteen_d, e512, faces(ts::boundary::dirichlet(1))) == 0);
    auto lopsided13 = thirteen_d;
    lopsided13[1] = 0.5;  // no longer mirrored along the axis of its point 1
    CHECK(cu::fusion_choice(h200, lopsided13, e512, faces(ts::boundary::neumann())) == 0);
    CHECK(cu::fusion_choice(h200, lopsided13, e512, faces(ts::boundary::periodic())) == 2);
    // an H100's box row says nothing for refilled faces: a sweep and a fill a step
    CHECK(cu::fusion_choice(cu::device_limits::h100(), box_f, e512, faces(ts::boundary::periodic())) == 0);
  }
  const auto box_4096 = [&](const cu::device_class& c) {
    return cu::lookup(cu::builtin_tuning_table(), cu::make_tuning_key<ts::box<2, 1>, float>(c, 4096.0 * 4096));
  };
  CHECK(box_4096(cu::class_of(lim)) == cu::candidate_of<cu::vector_streaming<>>);
  CHECK(box_4096(h200_class) == cu::candidate_of<cu::pipelined<>>);
  // the 2D box's fused rows were measured on an H200 only: an H100 takes the nearest class's
  // row (8 steps) rather than a sweep a step
  ts::stencil<ts::box<2, 1>, float> box9(ts::box<2, 1>{}, {.05f, .1f, .05f, .1f, .4f, .1f, .05f, .1f, .05f});
  const auto box9_row =
      cu::lookup(cu::builtin_fusion_table(), cu::make_tuning_key<ts::box<2, 1>, float>(h200_class, 8192.0 * 8192));
  REQUIRE(box9_row.has_value());
  CHECK(*box9_row > 1);
  CHECK(cu::fusion_choice(lim, box9, ts::extents<2>{8192, 8192}, dirichlet) == *box9_row);
  lim.memory_bandwidth_tbs = 4.8;
  ts::stencil<ts::star<3, 1>, double> seven(ts::star<3, 1>{}, {-6., 1., 1., 1., 1., 1., 1.});
  CHECK(cu::fusion_choice(lim, seven, ts::extents<3>{512, 512, 512},
                          std::optional(ts::boundary_conditions<3>::uniform(ts::boundary::dirichlet(0)))) == 2);
  // ... and fuses with persistent where its row leads and the grid fits on chip (fp64 128^3,
  // fp32 64^3 on an H200): the whole pass a launch; a grid that does not fit takes the next
  // row of its size (fp64 150^3: temporal blocking's 2 steps), and a device without
  // cooperative launches never runs persistent
  const auto dirichlet3 = std::optional(ts::boundary_conditions<3>::uniform(ts::boundary::dirichlet(0)));
  const auto persistent_index = ts::list_index_v<cu::persistent<>, cu::automatic_fusers>;
  const auto tb_index = ts::list_index_v<cu::temporal_blocking<>, cu::automatic_fusers>;
  const auto pick128 = cu::fusion_pick(lim, seven, ts::extents<3>{128, 128, 128}, dirichlet3);
  CHECK(pick128.fuser == persistent_index);
  CHECK(pick128.steps == cu::persistent<>::tile<ts::star<3, 1>>::steps);
  CHECK(cu::fusion_pick(lim, seven, ts::extents<3>{128, 128, 128}, faces(ts::boundary::periodic())).fuser ==
        persistent_index);  // its pass applies the faces' rules itself
  // rows of 600 columns do not fit (a thread a column, 384 a block): 64 x 64 x 600 is of
  // 128^3's size, whose next row fuses 2 steps with temporal blocking
  REQUIRE_FALSE(cu::persistent<>::plan_steps<ts::star<3, 1>, double>(ts::extents<3>{64, 64, 600}, lim, 100).ok());
  const auto pick_long = cu::fusion_pick(lim, seven, ts::extents<3>{64, 64, 600}, dirichlet3);
  CHECK(pick_long.fuser == tb_index);
  CHECK(pick_long.steps == 2);
  // 146^3 fits, but its own size's row (temporal blocking, 4 steps) leads there
  REQUIRE(cu::persistent<>::plan_steps<ts::star<3, 1>, double>(ts::extents<3>{146, 146, 146}, lim, 100).ok());
  const auto pick146 = cu::fusion_pick(lim, seven, ts::extents<3>{146, 146, 146}, dirichlet3);
  CHECK(pick146.fuser == tb_index);
  CHECK(pick146.steps == 4);
  const auto pick64 = cu::fusion_pick(lim, seven_f, ts::extents<3>{64, 64, 64}, dirichlet3);
  CHECK(pick64.fuser == persistent_index);
  CHECK(pick64.steps > 1);
  CHECK(cu::fusion_pick(lim, seven_f, ts::extents<3>{16, 16, 1000}, dirichlet3).steps == 0);  // rows too long: a sweep a step
  // unmirrored coefficients under a Neumann face: one step a pass is exact, persistent's row says fuse, so a sweep a step
  ts::stencil<ts::star<3, 1>, float> lopsided(ts::star<3, 1>{}, {-6.f, 1.f, 2.f, 1.f, 1.f, 1.f, 1.f});
  CHECK(cu::fusion_pick(lim, lopsided, ts::extents<3>{64, 64, 64}, faces(ts::boundary::neumann())).steps == 0);
  auto no_cooperative = lim;
  no_cooperative.cooperative_launch = false;
  CHECK(cu::fusion_pick(no_cooperative, seven_f, ts::extents<3>{64, 64, 64}, dirichlet3).steps == 0);
  // fp32 160^3: persistent under Dirichlet and periodic faces
  CHECK(cu::fusion_pick(lim, seven_f, ts::extents<3>{160, 160, 160}, dirichlet3).fuser == persistent_index);
  CHECK(cu::fusion_pick(lim, seven_f, ts::extents<3>{160, 160, 160}, faces(ts::boundary::periodic())).fuser ==
        persistent_index);
  {  // a row whose steps_refilled is 0 hands periodic and Neumann faces to the next row of its size
    const auto table = cu::parse_fusion_table(header +
                                                  "sm_90,132,4.8,star,3,1,float,22,4096,0,cuda:persistent,,n\n"
                                                  "sm_90,132,4.8,star,3,1,float,22,1,1,,,n\n",
                                              "t");
    const auto on_dirichlet = cu::fusion_pick(table, lim, seven_f, ts::extents<3>{160, 160, 160}, dirichlet3);
    CHECK(on_dirichlet.fuser == persistent_index);
    CHECK(on_dirichlet.steps == whole_pass);
    const auto on_periodic = cu::fusion_pick(table, lim, seven_f, ts::extents<3>{160, 160, 160}, faces(ts::boundary::periodic()));
    CHECK(on_periodic.fuser == tb_index);
    CHECK(on_periodic.steps == 1);
    // no conditions: neither row fuses (each view keeps its own ghosts), so a sweep a step
    CHECK(cu::fusion_pick(table, lim, seven_f, ts::extents<3>{160, 160, 160}, std::nullopt).steps == 0);
  }
  const auto pick128_nc = cu::fusion_pick(no_cooperative, seven, ts::extents<3>{128, 128, 128}, dirichlet3);
  CHECK(pick128_nc.fuser == tb_index);
  CHECK(pick128_nc.steps == 2);
  {  // the tile column: fp32 7-point at 512^3 and 640^3 fuses on 64 x 32 tiles on an H200 and an
     // H100; 384^3 (where they leave a tail wave), 256^3 and fp64 on the default tiles
    const auto wide_index = ts::list_index_v<cu::temporal_blocking<0, 64, 32>, cu::automatic_fusers>;
    const ts::extents<3> e512{512, 512, 512}, e256{256, 256, 256};
    for (const cu::device_limits& d : {lim, cu::device_limits::h100()}) {
      const auto wide = cu::fusion_pick(d, seven_f, e512, dirichlet3);
      CHECK(wide.fuser == wide_index);
      CHECK(wide.steps == 4);
      CHECK(cu::fusion_pick(d, seven_f, e512, faces(ts::boundary::periodic())).fuser == wide_index);
      CHECK(cu::fusion_pick(d, seven_f, ts::extents<3>{640, 640, 640}, dirichlet3).fuser == wide_index);
      const auto at384 = cu::fusion_pick(d, seven_f, ts::extents<3>{384, 384, 384}, dirichlet3);
      CHECK(at384.fuser == tb_index);
      CHECK(at384.steps == 4);
      CHECK(cu::fusion_pick(d, seven_f, e256, dirichlet3).fuser == tb_index);
      CHECK(cu::fusion_pick(d, seven, e512, dirichlet3).fuser == tb_index);
    }
    // a row naming the tile for a case it does not serve (fp64, the 13-point star) is passed
    // over: the next row of its size decides
    const auto table = cu::parse_fusion_table(header +
                                                  "sm_90,132,4.8,star,3,1,double,27,4,,,64x32,n\n"
                                                  "sm_90,132,4.8,star,3,1,double,27,3,,,,n\n"
                                                  "sm_90,132,4.8,star,3,2,float,27,2,2,,64x32,n\n",
                                              "t");
    const auto fp64 = cu::fusion_pick(table, lim, seven, e512, dirichlet3);
    CHECK(fp64.fuser == tb_index);
    CHECK(fp64.steps == 3);
    ts::stencil<ts::star<3, 2>, float> thirteen_f;
    for (int k = 0; k < thirteen_f.size; ++k) thirteen_f[k] = 1.f / 13;
    CHECK(cu::fusion_pick(table, lim, thirteen_f, e512, faces(ts::boundary::periodic())).steps == 0);
    // the tile's plan: 64 x 32 columns, 56 x 24 outputs at 4 steps
    const auto plan = cu::temporal_blocking<0, 64, 32>::plan_steps<ts::star<3, 1>, float>(e512, lim, 4);
    REQUIRE(plan.ok());
    CHECK(plan.block[0] == 64);
    CHECK(plan.out_tile[0] == 56);
  }
  CHECK(contains(cu::persistent<>::plan_steps<ts::star<3, 1>, float>(ts::extents<3>{64, 64, 64}, no_cooperative, 10).reason,
                 "cooperative"));
  ts::stencil<ts::star<2, 2>, float> nine(ts::star<2, 2>{}, {-5.f, 1.f, 1.f, 1.f, 1.f, 0.25f, 0.25f, 0.25f, 0.25f});
  // 2D radius 2: the H200's rows (the nearest class's for an H100) fuse 4 steps, under
  // Dirichlet faces too (the 2D pass reflects the walls: one value, mirrored coefficients)
  CHECK(cu::fusion_choice(lim, nine, ts::extents<2>{8192, 8192}, dirichlet) == 4);
  CHECK(cu::fusion_choice(lim, nine, ts::extents<2>{8192, 8192},
                          std::optional(ts::boundary_conditions<2>::uniform(ts::boundary::dirichlet(0))
                                            .set(1, ts::boundary::dirichlet(0), ts::boundary::dirichlet(1)))) == 0);
  ts::stencil<ts::star<2, 3>, float> thirteen;  // no row for radius 3: a sweep a step
  for (int k = 0; k < thirteen.size; ++k) thirteen[k] = 1.f / thirteen.size;
  REQUIRE_FALSE(cu::lookup(cu::builtin_fusion_table(), cu::make_tuning_key<ts::star<2, 3>, float>(cu::class_of(lim), 8192.0 * 8192)));
  CHECK(cu::fusion_choice(lim, thirteen, ts::extents<2>{8192, 8192}, dirichlet) == 0);
  ts::stencil<ts::star<1, 1>, float> three(ts::star<1, 1>{}, {-2.f, 1.f, 1.f});
  CHECK(cu::fusion_choice(lim, three, ts::extents<1>{100},
                          std::optional(ts::boundary_conditions<1>::uniform(ts::boundary::dirichlet(0)))) == 0);
}

