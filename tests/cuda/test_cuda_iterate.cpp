// iterate and boundary fills with CUDA views and policies.
#include <doctest/doctest.h>

#include <algorithm>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "../support/cuda_support.hpp"
#include "../support/fused_checks.hpp"
#include "../support/iterate_checks.hpp"
#include "tile_choices.hpp"

namespace ts = tessera;
namespace cu = tessera::cuda;
using namespace ts::test;

#define TESSERA_ITERATE_CUDA_POLICIES \
  cu::naive<>, cu::register_tiled<>, cu::streaming<>, cu::temporal_blocking<>, cu::automatic

TEST_CASE_TEMPLATE("iterate on the GPU: 3D heat, Dirichlet faces, discrete eigenvalue decay", P,
                   TESSERA_ITERATE_CUDA_POLICIES) {
  TESSERA_REQUIRE_CUDA_DEVICE();
  check_heat_dirichlet<P, ts::CudaSpace, double>();
  check_heat_dirichlet<P, ts::CudaSpace, float>();
}

TEST_CASE_TEMPLATE("iterate on the GPU: 1D heat, periodic and Neumann faces", P, cu::naive<>, cu::tiled<>,
                   cu::coarsened<>) {
  TESSERA_REQUIRE_CUDA_DEVICE();
  check_heat_periodic_neumann<P, ts::CudaSpace, double>();
  check_heat_periodic_neumann<P, ts::CudaSpace, float>();
}

TEST_CASE("fill_ghosts on the device follows the same rules as the host") {
  TESSERA_REQUIRE_CUDA_DEVICE();
  check_fill_rules<ts::CudaSpace>();
}

TEST_CASE("fill_ghosts on the device equals the host fill on random 1D, 2D and 3D cases, every kind per axis") {
  TESSERA_REQUIRE_CUDA_DEVICE();
  for (std::uint64_t seed = 1; seed <= 24; ++seed) {
    check_fill_matches_host<ts::CudaSpace, double, 3>(seed);
    check_fill_matches_host<ts::CudaSpace, float, 3>(seed + 100);
    check_fill_matches_host<ts::CudaSpace, double, 2>(seed + 200);
    check_fill_matches_host<ts::CudaSpace, float, 1>(seed + 300);
  }
}

// The device fill stores the x faces' ghosts of a view with rows of its own as whole
// 32-byte sectors (ghosts and the row padding beside them): the ghosts must hold the host
// fill's values, and a box of a larger view, whose rows' neighbours are the larger view's
// cells, must keep every cell outside its ghosts.
template <class T>
void check_sector_fill(int g, ts::boundary face, ts::index_t nx, std::uint64_t seed) {
  CAPTURE(g);
  CAPTURE(nx);
  CAPTURE(ts::to_string(face.kind));
  auto bc = ts::boundary_conditions<3>::uniform(face);
  if (face.kind != ts::boundary_kind::periodic) bc.set(1, ts::boundary::periodic(), ts::boundary::periodic());
  ts::View<T, 3> h("sectors", ts::extents<3>{5, 6, nx}, g);
  fill_random(h, seed);
  auto d = on_space<T, 3, ts::CudaSpace>(h, "sectors_d");
  ts::fill_ghosts(h, bc);
  ts::fill_ghosts(d, bc);
  const auto r = snapshot(d);
  int bad = 0;
  for_each_point<3>(h.extents(), g, [&](ts::index_t z, ts::index_t y, ts::index_t x) { bad += !(r(z, y, x) == h(z, y, x)); });
  CHECK(bad == 0);
  // a box 16 cells into the parent's rows (aligned) and one 3 cells in: the parent's cells
  // beside the box's x ghosts are its interior
  for (const ts::index_t x0 : {ts::index_t(16), ts::index_t(3)}) {
    ts::View<T, 3> ph("parent", ts::extents<3>{7, 8, nx + 40}, g);
    fill_random(ph, seed + 1);
    auto pd = on_space<T, 3, ts::CudaSpace>(ph, "parent_d");
    const ts::array<ts::index_t, 3> first{1, 1, x0};
    const ts::extents<3> count{5, 6, nx};
    ts::fill_ghosts(ph.box(first, count), bc);
    ts::fill_ghosts(pd.box(first, count), bc);
    const auto pr = snapshot(pd);
    bad = 0;
    for_each_point<3>(ph.extents(), g,
                      [&](ts::index_t z, ts::index_t y, ts::index_t x) { bad += !(pr(z, y, x) == ph(z, y, x)); });
    CHECK(bad == 0);
  }
}

TEST_CASE("fill_ghosts on the device: x faces in whole sectors keep the host fill's values and touch no neighbour") {
  TESSERA_REQUIRE_CUDA_DEVICE();
  std::uint64_t seed = 40;
  for (const int g : {1, 2, 3})
    for (const auto face : {ts::boundary::dirichlet(0.75), ts::boundary::neumann(), ts::boundary::periodic()})
      for (const ts::index_t nx : {ts::index_t(8), ts::index_t(16), ts::index_t(13), ts::index_t(32)}) {
        check_sector_fill<float>(g, face, nx, ++seed);
        check_sector_fill<double>(g, face, nx, ++seed);
      }
}

TEST_CASE_TEMPLATE("iterate on the GPU: Dirichlet ghosts are filled once, and again after the callback wrote them", P,
                   TESSERA_ITERATE_CUDA_POLICIES) {
  TESSERA_REQUIRE_CUDA_DEVICE();
  check_dirichlet_refill_after_callback<P, ts::CudaSpace, double>();
  check_dirichlet_refill_after_callback<P, ts::CudaSpace, float>();
}

// Fused time steps (cuda::temporal_blocking through iterate) against one sweep and one
// fill per step on the host and in Kokkos (fused_checks.hpp).
namespace {
constexpr boundary_case every_case[] = {boundary_case::none, boundary_case::dirichlet, boundary_case::periodic,
                                        boundary_case::neumann, boundary_case::mixed};
}

TEST_CASE("fused steps: 3D 7-point, every boundary kind, 10 steps of up to 4 per pass, float and double") {
  TESSERA_REQUIRE_CUDA_DEVICE();
  using P = cu::temporal_blocking<>;
  for (const auto c : every_case) {
    check_fused_iterate<P, ts::CudaSpace, ts::star<3, 1>, float>(ts::extents<3>{37, 29, 53}, 10, c, 1);
    check_fused_iterate<P, ts::CudaSpace, ts::star<3, 1>, double>(ts::extents<3>{37, 29, 53}, 10, c, 2);
  }
  // several chunks along z and tiles along y; mixed faces drawn per seed
  for (std::uint64_t seed = 3; seed < 7; ++seed)
    check_fused_iterate<P, ts::CudaSpace, ts::star<3, 1>, float>(ts::extents<3>{150, 20, 30}, 9, boundary_case::mixed, seed);
  // the other tile cuda::automatic's table may name (64 x 32 columns: fusion.csv's tile
  // column), whose kernels tessera_cuda compiles: several tiles along x and y, every kind
  using W = cu::temporal_blocking<0, 64, 32>;
  static_assert(W::automatic_fuses_tile<ts::star<3, 1>, float>);
  for (const auto c : every_case)
    check_fused_iterate<W, ts::CudaSpace, ts::star<3, 1>, float>(ts::extents<3>{131, 77, 45}, 10, c, 21);
}

TEST_CASE("fused steps: grids smaller than the fused halo wrap and mirror more than once") {
  TESSERA_REQUIRE_CUDA_DEVICE();
  using P = cu::temporal_blocking<>;
  for (const auto c : every_case) {
    check_fused_iterate<P, ts::CudaSpace, ts::star<3, 1>, double>(ts::extents<3>{3, 2, 5}, 9, c, 11);
    check_fused_iterate<P, ts::CudaSpace, ts::star<2, 1>, float>(ts::extents<2>{2, 7}, 17, c, 12);
  }
}

TEST_CASE("fused steps: radius 2 stars and boxes in 3D") {
  TESSERA_REQUIRE_CUDA_DEVICE();
  using P = cu::temporal_blocking<>;
  for (const auto c : every_case) {
    check_fused_iterate<P, ts::CudaSpace, ts::star<3, 2>, float>(ts::extents<3>{23, 19, 41}, 5, c, 21);
    check_fused_iterate<P, ts::CudaSpace, ts::box<3, 1>, double>(ts::extents<3>{17, 21, 33}, 7, c, 22);
  }
  check_fused_iterate<P, ts::CudaSpace, ts::box<3, 2>, float>(ts::extents<3>{13, 15, 29}, 5, boundary_case::periodic, 23);
  check_fused_iterate<P, ts::CudaSpace, ts::box<3, 2>, float>(ts::extents<3>{13, 15, 29}, 5, boundary_case::mixed, 24);
}

// 3D boxes in register tiles (temporal_blocking/box_tile.cuh): tiles of 28 x 28 outputs in
// double (24 x 26 at 3 steps), 56 x 28 in float, that divide no extent, several tiles along
// x and y, two chunks along z, passes of 1, 2 and 3 steps, grids smaller than the halo (the
// pieces beyond the faces copied cell by cell, wrapped and mirrored more than once, or
// zero-filled beyond a fixed face).
TEST_CASE("fused steps: 3D boxes in register tiles, every boundary kind, awkward sizes, 1 to 3 steps a pass") {
  TESSERA_REQUIRE_CUDA_DEVICE();
  using P = tessera::test::temporal_blocking_3;
  for (const auto c : every_case) {
    check_fused_iterate<P, ts::CudaSpace, ts::box<3, 1>, float>(ts::extents<3>{70, 61, 130}, 7, c, 71);
    check_fused_iterate<P, ts::CudaSpace, ts::box<3, 1>, double>(ts::extents<3>{67, 33, 61}, 8, c, 72);
  }
  // dirichlet_rows: Dirichlet along x, periodic along y, Neumann along z
  check_fused_iterate<P, ts::CudaSpace, ts::box<3, 1>, float>(ts::extents<3>{66, 40, 71}, 6, boundary_case::dirichlet_rows, 75);
}

TEST_CASE("fused steps: 3D boxes in register tiles, small grids (the sanitizers' case)") {
  TESSERA_REQUIRE_CUDA_DEVICE();
  using P = tessera::test::temporal_blocking_3;
  for (const auto c : every_case) {
    check_fused_iterate<P, ts::CudaSpace, ts::box<3, 1>, double>(ts::extents<3>{3, 2, 5}, 7, c, 73);
    check_fused_iterate<P, ts::CudaSpace, ts::box<3, 1>, float>(ts::extents<3>{5, 9, 3}, 5, c, 74);
  }
  // two tiles along x and y, one chunk along z
  check_fused_iterate<P, ts::CudaSpace, ts::box<3, 1>, float>(ts::extents<3>{20, 30, 60}, 5, boundary_case::mixed, 76);
}

TEST_CASE("fused steps: 2D stars and boxes, rows wider than a tile, up to 8 steps per pass") {
  TESSERA_REQUIRE_CUDA_DEVICE();
  using P = cu::temporal_blocking<>;
  for (const auto c : every_case) {
    check_fused_iterate<P, ts::CudaSpace, ts::star<2, 1>, double>(ts::extents<2>{67, 1100}, 19, c, 31);
    check_fused_iterate<P, ts::CudaSpace, ts::box<2, 2>, float>(ts::extents<2>{41, 37}, 11, c, 32);
  }
  check_fused_iterate<P, ts::CudaSpace, ts::star<2, 4>, double>(ts::extents<2>{50, 40}, 6, boundary_case::dirichlet, 33);
  check_fused_iterate<P, ts::CudaSpace, ts::star<2, 4>, double>(ts::extents<2>{50, 40}, 6, boundary_case::mixed, 34);
}

// A float pass of radius 1 and at most 7 steps runs middle steps where its rows lie inside:
// strips of 128 columns, several of them inside the grid and one at each x face (with fixed,
// wrapped or mirrored columns), chunks whose middle steps come in groups of 3 and a
// remainder of edge steps.
TEST_CASE("fused steps: 2D float passes of radius 1 with middle steps, every boundary kind, awkward sizes") {
  TESSERA_REQUIRE_CUDA_DEVICE();
  using Six = tessera::test::temporal_blocking_2d_6;
  for (const auto c : every_case) {
    check_fused_iterate<Six, ts::CudaSpace, ts::star<2, 1>, float>(ts::extents<2>{517, 700}, 13, c, 71);
    check_fused_iterate<Six, ts::CudaSpace, ts::box<2, 1>, float>(ts::extents<2>{389, 261}, 14, c, 72);
  }
  // one strip holds both x faces; rows fewer than a chunk's pipeline (edge steps only)
  check_fused_iterate<Six, ts::CudaSpace, ts::star<2, 1>, float>(ts::extents<2>{300, 97}, 12, boundary_case::mixed, 73);
  check_fused_iterate<Six, ts::CudaSpace, ts::box<2, 1>, float>(ts::extents<2>{9, 333}, 7, boundary_case::periodic, 74);
}

// A stencil of reach 2 or more reads past a Dirichlet wall, where a fill writes each
// step's odd reflection of the interior: the 2D pass computes those cells (edge_rule::
// reflect) and fuses several steps where every Dirichlet face holds one value and the
// coefficients are mirrored along the axes with walls; elsewhere a pass takes one step.
TEST_CASE("fused steps: 2D stencils that read past Dirichlet walls fuse several steps, awkward and tiny grids") {
  TESSERA_REQUIRE_CUDA_DEVICE();
  using P = cu::temporal_blocking<>;
  using Wide2d = tessera::test::temporal_blocking_2d_6x64x1;
  const ts::extents<2> e{37, 300};
  const auto thirteen = bounded_stencil<ts::star<2, 2>, float>(61, true);
  for (const auto c : {boundary_case::walls, boundary_case::walls_mixed}) {
    const auto bc = make_boundary<2>(c, 5);
    CHECK(cu::fused_steps(P{}, thirteen, e, bc) == P::tile<ts::star<2, 2>>::steps);
    CHECK(cu::fused_steps(Wide2d{}, bounded_stencil<ts::box<2, 2>, float>(62, true), e, bc) == 6);
    check_fused_iterate<P, ts::CudaSpace, ts::star<2, 2>, float>(ts::extents<2>{150, 131}, 9, c, 61);
    check_fused_iterate<P, ts::CudaSpace, ts::star<2, 2>, double>(e, 10, c, 62);
    check_fused_iterate<P, ts::CudaSpace, ts::box<2, 2>, float>(ts::extents<2>{41, 37}, 11, c, 63);
    check_fused_iterate<P, ts::CudaSpace, ts::star<2, 4>, double>(ts::extents<2>{50, 40}, 6, c, 64);
    check_fused_iterate<Wide2d, ts::CudaSpace, ts::box<2, 2>, float>(ts::extents<2>{29, 97}, 13, c, 65);
    // grids smaller than a pass's reach: cells beyond one wall reflect past the other
    check_fused_iterate<P, ts::CudaSpace, ts::star<2, 3>, float>(ts::extents<2>{5, 4}, 7, c, 66);
    check_fused_iterate<P, ts::CudaSpace, ts::box<2, 2>, double>(ts::extents<2>{3, 6}, 9, c, 67);
  }
  // faces of different values, coefficients not mirrored, and 3D passes (which read the
  // walls' layers as fixed): one step a pass, and still the right answer
  const auto walls = make_boundary<2>(boundary_case::walls, 5);
  CHECK(cu::fused_steps(P{}, thirteen, e, make_boundary<2>(boundary_case::dirichlet, 5)) == 1);
  CHECK(cu::fused_steps(P{}, bounded_stencil<ts::star<2, 2>, float>(61, false), e, walls) == 1);
  CHECK(cu::fused_steps(P{}, bounded_stencil<ts::star<3, 2>, float>(61, true), ts::extents<3>{20, 20, 20},
                        make_boundary<3>(boundary_case::walls, 5)) == 1);
  check_fused_iterate<P, ts::CudaSpace, ts::star<2, 2>, float>(ts::extents<2>{40, 70}, 6, boundary_case::walls, 68, false);
  check_fused_iterate<P, ts::CudaSpace, ts::star<3, 2>, float>(ts::extents<3>{19, 23, 40}, 5, boundary_case::walls_mixed, 69);
}

TEST_CASE("fused steps: other tiles, callbacks between passes, Neumann faces with unmirrored coefficients") {
  TESSERA_REQUIRE_CUDA_DEVICE();
  using P = cu::temporal_blocking<>;
  using Q = tessera::test::temporal_blocking_3x16x8;
  using Rows1 = tessera::test::temporal_blocking_rows1;
  using Rows8 = tessera::test::temporal_blocking_2x32x24x8;
  for (const auto c : every_case) {
    check_fused_iterate<Q, ts::CudaSpace, ts::star<3, 1>, double>(ts::extents<3>{19, 37, 23}, 8, c, 41);
    check_fused_iterate<Q, ts::CudaSpace, ts::box<3, 1>, float>(ts::extents<3>{19, 37, 23}, 7, c, 42);
    check_fused_iterate<Rows1, ts::CudaSpace, ts::star<3, 1>, float>(ts::extents<3>{23, 41, 45}, 7, c, 47);
    check_fused_iterate<Rows8, ts::CudaSpace, ts::star<3, 1>, float>(ts::extents<3>{17, 53, 35}, 5, c, 48);
    check_fused_iterate<Rows8, ts::CudaSpace, ts::star<3, 2>, double>(ts::extents<3>{17, 53, 35}, 5, c, 49);
    check_fused_iterate<Rows8, ts::CudaSpace, ts::box<3, 1>, double>(ts::extents<3>{17, 41, 29}, 5, c, 50);
  }
  using Narrow2d = tessera::test::temporal_blocking_2d_5x32x3;
  using Wide2d = tessera::test::temporal_blocking_2d_6x64x1;
  for (const auto c : every_case) {
    // 2D strips of 32 and 64 columns: rows of 3 to several strips, chunks along y
    check_fused_iterate<Narrow2d, ts::CudaSpace, ts::star<2, 1>, float>(ts::extents<2>{300, 61}, 13, c, 51);
    check_fused_iterate<Wide2d, ts::CudaSpace, ts::star<2, 1>, double>(ts::extents<2>{45, 301}, 13, c, 52);
    check_fused_iterate<Wide2d, ts::CudaSpace, ts::box<2, 2>, float>(ts::extents<2>{29, 97}, 7, c, 53);
  }
  // callbacks every 4 of 10 and every 3 of 9 steps: the passes stop there, the views alternate as per step
  check_fused_iterate<P, ts::CudaSpace, ts::star<3, 1>, double>(ts::extents<3>{21, 18, 35}, 10, boundary_case::mixed, 43, true, 4);
  check_fused_iterate<P, ts::CudaSpace, ts::star<2, 1>, float>(ts::extents<2>{30, 600}, 9, boundary_case::dirichlet, 44, true, 3);
  // coefficients that do not mirror: under Neumann faces a pass takes one step (fused_steps = 1)
  check_fused_iterate<P, ts::CudaSpace, ts::star<3, 1>, double>(ts::extents<3>{21, 18, 35}, 6, boundary_case::neumann, 45, false);
  check_fused_iterate<P, ts::CudaSpace, ts::box<2, 1>, float>(ts::extents<2>{33, 45}, 5, boundary_case::neumann, 46, false);
}

// cuda::persistent (the grid on chip, a box an SM, faces through L2, a grid barrier a step)
// against one sweep and one fill per step: boxes cut short along y and z, a one-row box,
// groups of planes with a remainder, rows past a warp, grids that wrap and mirror more than
// once, callbacks between passes.
TEST_CASE("persistent steps: 3D 7-point, every boundary kind, awkward boxes, float and double") {
  TESSERA_REQUIRE_CUDA_DEVICE();
  using P = cu::persistent<>;
  for (const auto c : every_case) {
    // 300 columns: one 320-thread row a block, 8 float rows (4 double) a box, 4 and 8 boxes
    // along y (the last of 5 and 1 rows), 2- or 3-plane boxes along z (the last shorter)
    check_fused_iterate<P, ts::CudaSpace, ts::star<3, 1>, float>(ts::extents<3>{37, 29, 300}, 10, c, 61);
    check_fused_iterate<P, ts::CudaSpace, ts::star<3, 1>, double>(ts::extents<3>{37, 29, 300}, 9, c, 62);
    check_fused_iterate<P, ts::CudaSpace, ts::star<3, 1>, float>(ts::extents<3>{23, 17, 290}, 7, c, 63);
    // one box along y of 4 threads' rows: 6 planes a box, a group of 4 and the remaining 2
    check_fused_iterate<P, ts::CudaSpace, ts::star<3, 1>, float>(ts::extents<3>{700, 29, 53}, 6, c, 64);
    // smaller than a warp's row and a thread's rows
    check_fused_iterate<P, ts::CudaSpace, ts::star<3, 1>, double>(ts::extents<3>{3, 2, 5}, 9, c, 65);
  }
  // callbacks every 4 of 10 steps: the passes stop there; unmirrored coefficients under
  // Neumann faces: a pass a step
  check_fused_iterate<P, ts::CudaSpace, ts::star<3, 1>, double>(ts::extents<3>{21, 18, 35}, 10, boundary_case::mixed, 66, true, 4);
  check_fused_iterate<P, ts::CudaSpace, ts::star<3, 1>, float>(ts::extents<3>{21, 18, 35}, 6, boundary_case::neumann, 67, false);
}

TEST_CASE("persistent steps: the launch is recorded, and what does not fit is refused by name") {
  TESSERA_REQUIRE_CUDA_DEVICE();
  using P = cu::persistent<>;
  const auto st = bounded_stencil<ts::star<3, 1>, float>(7, true);
  const auto bc = std::optional(ts::boundary_conditions<3>::uniform(ts::boundary::periodic()));
  ts::View<float, 3, ts::CudaSpace> a("field_a", ts::extents<3>{40, 50, 60}, 1), b("field_b", a.layout());
  cu::sweep_steps(P{}, st, a, b, 5, bc);
  cu::synchronize();
  CHECK(cu::last_launch().plan.strategy == "persistent");
  CHECK(cu::last_launch().block[0] == 64);
  CHECK(cu::last_launch().grid[1] * cu::last_launch().grid[2] <= cu::current_device_limits().multiprocessors);
  ts::View<float, 3, ts::CudaSpace> big("field_big", ts::extents<3>{300, 300, 300}, 1), big2("field_big2", big.layout());
  const auto msg = message_of<ts::unsupported_error>([&] { cu::sweep_steps(P{}, st, big, big2, 2, bc); });
  CHECK(msg.find("'field_big'") != std::string::npos);
  CHECK(msg.find("does not fit on chip") != std::string::npos);
}

TEST_CASE("persistent steps: a box of a larger view (a rank's grown block) reads its ghosts from the view and writes only the box") {
  TESSERA_REQUIRE_CUDA_DEVICE();
  using P = cu::persistent<>;
  const auto st = bounded_stencil<ts::star<3, 1>, float>(71, true);
  const ts::extents<3> whole{30, 41, 75}, count{21, 30, 50};
  const ts::array<ts::index_t, 3> first{-1, 4, 3};  // the box reaches one plane into the ghost layer
  ts::View<float, 3> a0("a0", whole, 2), b0("b0", whole, 2);
  fill_random(a0, 72);
  ts::deep_copy(b0, a0);  // the same ring of ghosts around the box in both views
  const int steps = 7;
  // reference: 7 sweeps on the host, each view keeping its own ghosts (no conditions)
  auto ha = snapshot(a0), hb = snapshot(b0);
  const auto href = ts::iterate(ts::host::serial{}, st, ha.box(first, count, 1), hb.box(first, count, 1), steps,
                                ts::iterate_options<float, 3, ts::HostSpace>{});
  REQUIRE(steps % 2 == 1);  // the host's result lands in hb's box
  auto da = on_space<float, 3, ts::CudaSpace>(a0, "field_a"), db = on_space<float, 3, ts::CudaSpace>(b0, "field_b");
  cu::sweep_steps(P{}, st, da.box(first, count, 1), db.box(first, count, 1), steps,
                  std::optional<ts::boundary_conditions<3>>{});
  cu::synchronize();
  CHECK(cu::last_launch().plan.strategy == "persistent");
  const auto got = snapshot(db);
  // inside the box the host's result, everywhere else (ghosts included) b0 as it was
  double worst_in = 0, worst_out = 0;
  for_each_point<3>(whole, 2, [&](ts::index_t z, ts::index_t y, ts::index_t x) {
    const bool in = z >= first[0] && z < first[0] + count[0] && y >= first[1] && y < first[1] + count[1] &&
                    x >= first[2] && x < first[2] + count[2];
    const double want = in ? hb(z, y, x) : b0(z, y, x), d = std::abs(got(z, y, x) - want) / std::max(1.0, std::abs(want));
    (in ? worst_in : worst_out) = std::max(in ? worst_in : worst_out, std::isfinite(d) ? d : 1e300);
  });
  CHECK(href.data() == hb.box(first, count, 1).data());
  CHECK(worst_in <= 2e-5);
  CHECK(worst_out == 0);
}

TEST_CASE("fused steps: a Neumann face refuses several steps of unmirrored coefficients by name") {
  TESSERA_REQUIRE_CUDA_DEVICE();
  ts::View<double, 2, ts::CudaSpace> a("field_a", ts::extents<2>{9, 9}, 1), b("field_b", a.layout());
  const auto st = bounded_stencil<ts::star<2, 1>, double>(5, false);
  const auto bc = std::optional(ts::boundary_conditions<2>::uniform(ts::boundary::neumann()));
  const auto msg = message_of<ts::unsupported_error>([&] { cu::sweep_steps(cu::temporal_blocking<>{}, st, a, b, 2, bc); });
  CHECK(msg.find("'field_a'") != std::string::npos);
  CHECK(msg.find("symmetric") != std::string::npos);
  const auto too_many = message_of<ts::unsupported_error>(
      [&] { cu::sweep_steps(cu::temporal_blocking<>{}, bounded_stencil<ts::star<2, 1>, double>(5, true), a, b, 9, bc); });
  CHECK(too_many.find("1 to 8 steps") != std::string::npos);
  // a stencil that reads past a Dirichlet wall (radius 2): the layers beyond it change every
  // step, so several steps a pass are refused, and nothing is written
  ts::View<float, 3> sevens("sevens", ts::extents<3>{12, 11, 13}, 2);
  for_each_point<3>(sevens.extents(), 2, [&](ts::index_t z, ts::index_t y, ts::index_t x) { sevens(z, y, x) = 7.0f; });
  ts::View<float, 3, ts::CudaSpace> c("field_c", sevens.layout());
  auto d = on_space<float, 3, ts::CudaSpace>(sevens, "field_d");
  const auto wide = bounded_stencil<ts::star<3, 2>, float>(13, true);
  const auto walls = std::optional(ts::boundary_conditions<3>::uniform(ts::boundary::periodic())
                                       .set(1, ts::boundary::dirichlet(1), ts::boundary::periodic()));
  const auto beyond = message_of<ts::unsupported_error>([&] { cu::sweep_steps(cu::temporal_blocking<>{}, wide, c, d, 2, walls); });
  CHECK(beyond.find("'field_c'") != std::string::npos);
  CHECK(beyond.find("Dirichlet") != std::string::npos);
  CHECK(beyond.find("one step per pass") != std::string::npos);
  CHECK(cu::fused_steps(cu::temporal_blocking<>{}, wide, c, walls) == 1);
  const auto untouched = snapshot(d);
  bool all_seven = true;
  for_each_point<3>(c.extents(), 2,
                    [&](ts::index_t z, ts::index_t y, ts::index_t x) { all_seven = all_seven && untouched(z, y, x) == 7.0f; });
  CHECK(all_seven);
  // one step a pass runs (it reads the layers a fill wrote)
  CHECK_NOTHROW(cu::sweep_steps(cu::temporal_blocking<>{}, wide, c, d, 1, walls));
}

TEST_CASE("fused steps: automatic fuses the cases its fusion table measured faster, on this device") {
  TESSERA_REQUIRE_CUDA_DEVICE();
  // Whatever the table says for this device (fused, or a sweep a step), the result is the
  // one-sweep-a-step result in the same view; on an H100 the 2D 5-point float rows and the
  // 3D 7-point rows of 256^3 and more fuse (these small grids step a sweep at a time in 3D).
  INFO("device ", cu::current_device_limits().name);
  for (const auto c : {boundary_case::dirichlet, boundary_case::periodic, boundary_case::mixed}) {
    check_fused_iterate<cu::automatic, ts::CudaSpace, ts::star<2, 1>, float>(ts::extents<2>{67, 1100}, 19, c, 51);
    check_fused_iterate<ts::automatic, ts::CudaSpace, ts::star<3, 1>, double>(ts::extents<3>{37, 29, 53}, 10, c, 52);
    check_fused_iterate<cu::automatic, ts::CudaSpace, ts::box<3, 1>, double>(ts::extents<3>{37, 29, 61}, 7, c, 53);
  }
  // the 27-point fp64 box fuses 2 steps a pass on an H200 (the register-tile pass, run 53)
  const ts::stencil<ts::box<3, 1>, double> box27(ts::box<3, 1>{}, std::vector<double>(27, 1.0 / 27));
  const auto walls = std::optional(ts::boundary_conditions<3>::uniform(ts::boundary::dirichlet(0)));
  if (cu::current_device_limits().name == "NVIDIA H200")
    CHECK(cu::fused_steps(cu::automatic{}, box27, ts::extents<3>{512, 512, 512}, walls) == 2);
  const auto dirichlet = std::optional(ts::boundary_conditions<2>::uniform(ts::boundary::dirichlet(0)));
  const ts::stencil<ts::star<2, 1>, float> five(ts::star<2, 1>{}, {-4.f, 1.f, 1.f, 1.f, 1.f});
  const int k = cu::fused_steps(cu::automatic{}, five, ts::extents<2>{8192, 8192}, dirichlet);
  if (cu::current_device_limits().name == "NVIDIA H100 80GB HBM3") CHECK(k > 1);
  CHECK(k == cu::fusion_choice(cu::current_device_limits(), five, ts::extents<2>{8192, 8192}, dirichlet));
}

TEST_CASE("fused steps: automatic runs its passes with the strategy its fusion row names (persistent where it leads)") {
  TESSERA_REQUIRE_CUDA_DEVICE();
  const auto& lim = cu::current_device_limits();
  INFO("device ", lim.name);
  // fp32 64^3 and fp64 128^3: on an H200 persistent's rows lead (the whole pass a launch);
  // elsewhere whatever the table says. The results are the sweep-a-step results either way.
  for (const auto c : {boundary_case::dirichlet, boundary_case::periodic, boundary_case::mixed}) {
    check_fused_iterate<cu::automatic, ts::CudaSpace, ts::star<3, 1>, float>(ts::extents<3>{64, 64, 64}, 12, c, 81);
    check_fused_iterate<cu::automatic, ts::CudaSpace, ts::star<3, 1>, double>(ts::extents<3>{128, 128, 128}, 5, c, 82);
  }
  // the launch is the pick's strategy
  const auto check_launch = [&]<class T>(const ts::extents<3>& e, T) {
    const ts::stencil<ts::star<3, 1>, T> seven(ts::star<3, 1>{}, {T(0.4), T(0.1), T(0.1), T(0.1), T(0.1), T(0.1), T(0.1)});
    const auto bc = std::optional(ts::boundary_conditions<3>::uniform(ts::boundary::dirichlet(0)));
    const auto pick = cu::fusion_pick(lim, seven, e, bc);
    CHECK(cu::fused_steps(cu::automatic{}, seven, e, bc) == pick.steps);
    ts::View<T, 3> h("h", e, 1);
    fill_random(h, 83);
    auto u = on_space<T, 3, ts::CudaSpace>(h, "u"), s = on_space<T, 3, ts::CudaSpace>(h, "s");
    ts::iterate_options<T, 3, ts::CudaSpace> o;
    o.boundary = bc;
    ts::iterate(cu::automatic{}, seven, u, s, 6, o);
    cu::synchronize();
    cu::launch_plan expected;
    if (pick.steps > 0)
      cu::with_fuser(pick.fuser, [&](auto policy) {
        expected = decltype(policy)::template plan_steps<ts::star<3, 1>, T>(e, lim, std::min(pick.steps, 6));
      });
    INFO(e.to_string(), sizeof(T) == 8 ? " double" : " float", ": pick ", pick.steps, " steps with ", cu::fuser_name(pick.fuser));
    if (pick.steps > 0) {
      CHECK(cu::last_launch().plan.strategy == expected.strategy);
      CHECK(cu::last_launch().plan.block[0] == expected.block[0]);  // the row's tile
      CHECK(cu::last_launch().plan.block[1] == expected.block[1]);
    }
    if (lim.name.find("H200") != std::string::npos && e[0] <= 128) CHECK(expected.strategy == "persistent");
    const bool h100_or_h200 = lim.name.find("H200") != std::string::npos || lim.name.find("H100") != std::string::npos;
    if (h100_or_h200 && sizeof(T) == 4 && e[0] > 400) CHECK(expected.block[0] == 64);  // the 512^3 row's tile
  };
  check_launch(ts::extents<3>{64, 64, 64}, 0.f);
  check_launch(ts::extents<3>{128, 128, 128}, 0.0);
  check_launch(ts::extents<3>{160, 160, 160}, 0.0);  // does not fit in fp64: the next row's strategy
  check_launch(ts::extents<3>{479, 467, 453}, 0.f);  // nearest measured size 512^3: 64 x 32 tiles on an H100 or H200
  // ... and its result is the sweep-a-step result
  check_fused_iterate<cu::automatic, ts::CudaSpace, ts::star<3, 1>, float>(ts::extents<3>{479, 467, 453}, 5,
                                                                            boundary_case::dirichlet, 85);
}

// Step graphs (tessera/cuda/detail/step_graph.hpp): iterate records blocks of steps as CUDA graphs
// and launches them; the result must be the one of launching every kernel, bit for bit.
namespace {

struct graph_use {
  long long recorded = 0, launched = 0;
};

/// The graphs iterate records and launches for `steps` steps with callbacks every `every`:
/// its loop, replayed on counts (a block where 2 or more are left before the next
/// callback, never at step 0).
graph_use expected_graphs(int steps, int every) {
  const int block = ts::detail::graph_block_steps;
  graph_use use;
  int k = 0;
  while (k < steps) {
    const int stop = every > 0 ? std::min(steps, (k / every + 1) * every) : steps;
    while (k < stop) {
      if (k > 0 && stop - k >= 2 * block) {
        ++use.recorded;
        use.launched += (stop - k) / block;
        k += (stop - k) / block * block;
      } else {
        ++k;
      }
    }
  }
  return use;
}
long long expected_graph_launches(int steps, int every) { return expected_graphs(steps, every).launched; }

template <class Policy, class S, class T>
void check_step_graphs(const ts::extents<S::rank>& n, int steps, boundary_case bcase, std::uint64_t seed, int every = 0) {
  constexpr int Rank = S::rank;
  const int g = ts::shape_traits<S>::radius;
  const auto st = bounded_stencil<S, T>(seed, true);
  ts::View<T, Rank> u0("u0", n, g), scratch0("scratch0", n, g);
  fill_random(u0, seed + 2);
  poison(scratch0);
  struct run_result {
    ts::View<T, Rank> field;
    bool in_u;
    std::vector<std::pair<int, ts::View<T, Rank>>> calls;
  };
  // graphs: step graphs and overlapped launches (sm_90) on; else each kernel launched after
  // the one before has finished
  auto run = [&](bool graphs) {
    cu::allow_overlapped_launches(graphs);
    auto u = on_space<T, Rank, ts::CudaSpace>(u0, "u"), s = on_space<T, Rank, ts::CudaSpace>(scratch0, "scratch");
    run_result r;
    ts::iterate_options<T, Rank, ts::CudaSpace> o;
    o.boundary = make_boundary<Rank>(bcase, seed + 1);
    o.launch_graphs = graphs;
    o.every = every;
    if (every > 0)
      o.callback = [&](int step, const ts::View<T, Rank, ts::CudaSpace>& cur) { r.calls.emplace_back(step, snapshot(cur)); };
    const auto out = ts::iterate(Policy{}, st, u, s, steps, o);
    r.field = snapshot(out);
    r.in_u = out.data() == u.data();
    cu::allow_overlapped_launches(true);
    return r;
  };
  INFO(Policy::name() << " " << ts::shape_name<S>() << (sizeof(T) == 8 ? " double " : " float ") << n.to_string() << ", "
                      << steps << " steps, boundary " << to_string(bcase) << ", callback every " << every);
  const run_result one_by_one = run(false);
  const auto before = cu::step_graphs_so_far();
  const run_result graphed = run(true);
  const auto after = cu::step_graphs_so_far();
  // automatic may fuse steps instead (its fusion table, this device): then no graph
  graph_use expected = expected_graphs(steps, every);
  if constexpr (std::is_same_v<Policy, cu::automatic>)
    if (fused_steps(Policy{}, st, n, make_boundary<Rank>(bcase, seed + 1)) >= 1) expected = {};
  CHECK(after.launched - before.launched == expected.launched);
  CHECK(after.recorded - before.recorded == expected.recorded);
  CHECK(after.refused == before.refused);
  CHECK(graphed.in_u == one_by_one.in_u);
  CHECK(padded_difference(graphed.field, one_by_one.field) == 0.0);  // ghosts included
  REQUIRE(graphed.calls.size() == one_by_one.calls.size());
  for (std::size_t i = 0; i < graphed.calls.size(); ++i) {
    CHECK(graphed.calls[i].first == one_by_one.calls[i].first);
    CHECK(padded_difference(graphed.calls[i].second, one_by_one.calls[i].second) == 0.0);
  }
  // and both are the field: against host::serial stepping one sweep at a time
  auto hu = snapshot(u0), hs = snapshot(scratch0);
  ts::iterate_options<T, Rank, ts::HostSpace> ho;
  ho.boundary = make_boundary<Rank>(bcase, seed + 1);
  const auto want = snapshot(ts::iterate(ts::host::serial{}, st, hu, hs, steps, ho));
  CHECK(padded_difference(graphed.field, want) <= (sizeof(T) == 8 ? 1e-12 : 2e-5));
}

}  // namespace

TEST_CASE("step graphs: iterate's recorded blocks equal launching every step, bit for bit, every boundary kind") {
  TESSERA_REQUIRE_CUDA_DEVICE();
  // the counts the checks expect: 33 steps are 1 alone + 2 blocks; 100: 1 + 6 blocks + 3
  CHECK(expected_graph_launches(33, 0) == 2);
  CHECK(expected_graph_launches(100, 0) == 6);
  CHECK(expected_graph_launches(32, 0) == 0);  // 31 left after the first: one block would not pay
  for (const auto c : every_case) {
    check_step_graphs<cu::naive<>, ts::star<3, 1>, float>(ts::extents<3>{21, 19, 37}, 100, c, 31);
    check_step_graphs<cu::pipelined<>, ts::star<3, 1>, double>(ts::extents<3>{21, 19, 37}, 33, c, 32);
    check_step_graphs<cu::naive<>, ts::star<2, 1>, double>(ts::extents<2>{45, 67}, 47, c, 33);
  }
  check_step_graphs<cu::vector_streaming<>, ts::star<3, 1>, float>(ts::extents<3>{40, 33, 70}, 65, boundary_case::mixed, 34);
  check_step_graphs<cu::automatic, ts::star<3, 1>, float>(ts::extents<3>{40, 33, 70}, 65, boundary_case::periodic, 35);
  check_step_graphs<cu::shared_streaming<>, ts::box<3, 1>, float>(ts::extents<3>{23, 17, 41}, 40, boundary_case::neumann, 36);
  check_step_graphs<cu::naive<>, ts::star<3, 2>, float>(ts::extents<3>{23, 17, 41}, 40, boundary_case::dirichlet, 37);
}

TEST_CASE("overlapped launches: on where the device has them, off when disallowed, and the same fields") {
  TESSERA_REQUIRE_CUDA_DEVICE();
  CHECK(cu::overlapped_launches() == (cu::current_device_limits().compute_major >= 9));
  cu::allow_overlapped_launches(false);
  CHECK_FALSE(cu::overlapped_launches());
  cu::allow_overlapped_launches(true);
  // one sweep after another on one stream, each reading the last one's output (a chain
  // that breaks if a sweep starts before the one before it has written everything), and
  // fills in between: overlapped against not, bit for bit
  for (const auto c : every_case) {
    check_step_graphs<cu::vector_streaming<>, ts::star<3, 1>, float>(ts::extents<3>{64, 48, 96}, 7, c, 51);
    check_step_graphs<cu::pipelined<>, ts::star<3, 2>, double>(ts::extents<3>{30, 26, 70}, 9, c, 52);
    check_step_graphs<cu::shared_streaming<>, ts::box<3, 1>, float>(ts::extents<3>{30, 26, 70}, 5, c, 53);
    check_step_graphs<cu::naive<>, ts::star<2, 1>, float>(ts::extents<2>{300, 257}, 11, c, 54);
  }
}

TEST_CASE("step graphs: blocks between callbacks, and none where fewer than two blocks are left") {
  TESSERA_REQUIRE_CUDA_DEVICE();
  CHECK(expected_graph_launches(77, 40) == 4);  // [1, 33) and [40, 72) as blocks
  CHECK(expected_graphs(77, 40).recorded == 2);
  CHECK(expected_graph_launches(100, 20) == 0);
  for (const auto c : {boundary_case::dirichlet, boundary_case::periodic, boundary_case::mixed}) {
    check_step_graphs<cu::naive<>, ts::star<3, 1>, float>(ts::extents<3>{21, 19, 37}, 77, c, 41, 40);
    check_step_graphs<cu::naive<>, ts::star<3, 1>, double>(ts::extents<3>{21, 19, 37}, 100, c, 42, 20);
  }
}

TEST_CASE("step graphs: kernels are recorded without the overlap attribute, and the setting returns after") {
  TESSERA_REQUIRE_CUDA_DEVICE();
  const bool before = cu::overlapped_launches();
  ts::View<float, 3> h("v", ts::extents<3>{6, 7, 9}, 1);
  fill_random(h, 5);
  const auto v = to_device(h, "v_d");
  const auto bc = ts::boundary_conditions<3>::uniform(ts::boundary::periodic());
  bool inside = true;
  CHECK(cu::replay_steps(ts::CudaSpace{}, 2, [&](cudaStream_t s) {
    inside = cu::overlapped_launches();
    ts::fill_ghosts(v, bc, s);
  }));
  CHECK_FALSE(inside);
  CHECK(cu::overlapped_launches() == before);
  // a record that throws abandons its capture and restores the setting too
  CHECK_FALSE(cu::replay_steps(ts::CudaSpace{}, 1, [&](cudaStream_t) { throw ts::invalid_argument_error("stop"); }));
  CHECK(cu::overlapped_launches() == before);
  // the fill ran through the graph: every cell, ghosts included, equals the host fill
  ts::fill_ghosts(h, bc);
  const auto got = to_host(v);
  ts::index_t differ = 0;
  for_each_point<3>(h.extents(), 1, [&](auto... i) { differ += !(got(i...) == h(i...)); });
  CHECK(differ == 0);
}

TEST_CASE("step graphs: the default records them where graphs_pay_off says so (long runs, small sweeps)") {
  // the rule itself (no device needed): 512 steps or more between callbacks, 24 MiB a sweep or less
  CHECK(cu::graphs_pay_off(ts::CudaSpace{}, 2u * 128 * 128 * 128 * sizeof(float), 1000));   // 16 MiB
  CHECK_FALSE(cu::graphs_pay_off(ts::CudaSpace{}, 2u * 128 * 128 * 128 * sizeof(double), 1000));  // 32 MiB
  CHECK_FALSE(cu::graphs_pay_off(ts::CudaSpace{}, 2u * 160 * 160 * 160 * sizeof(float), 1000));
  CHECK_FALSE(cu::graphs_pay_off(ts::CudaSpace{}, 2u * 128 * 128 * 128 * sizeof(float), 511));
  CHECK(cu::graphs_pay_off(ts::CudaSpace{}, std::size_t(24) << 20, 512));
  TESSERA_REQUIRE_CUDA_DEVICE();
  const ts::extents<3> n{23, 17, 40};
  const auto st = bounded_stencil<ts::star<3, 1>, float>(61, true);
  ts::View<float, 3> u0("u0", n, 1), scratch0("scratch0", n, 1);
  fill_random(u0, 62);
  poison(scratch0);
  const auto bc = ts::boundary_conditions<3>::uniform(ts::boundary::periodic());
  // steps, callback interval, launch_graphs (unset: the default), whether graphs may run
  struct run_case {
    int steps, every;
    std::optional<bool> graphs;
    bool expect_graphs;
  };
  ts::View<float, 3> first;
  for (const run_case c : {run_case{600, 0, false, false}, run_case{600, 0, std::nullopt, true},
                           run_case{100, 0, std::nullopt, false}, run_case{600, 200, std::nullopt, false}}) {
    INFO(c.steps << " steps, callback every " << c.every << ", launch_graphs "
                 << (c.graphs ? (*c.graphs ? "true" : "false") : "unset"));
    auto u = to_device(u0, "u_d"), s = to_device(scratch0, "scratch_d");
    ts::iterate_options<float, 3, ts::CudaSpace> o;
    o.boundary = bc;
    o.launch_graphs = c.graphs;
    o.every = c.every;
    int calls = 0;
    if (c.every > 0) o.callback = [&](int, const ts::View<float, 3, ts::CudaSpace>&) { ++calls; };
    const auto before = cu::step_graphs_so_far();
    const auto out = to_host(ts::iterate(cu::naive<>{}, st, u, s, c.steps, o));
    const auto after = cu::step_graphs_so_far();
    CHECK(after.launched - before.launched == (c.expect_graphs ? expected_graph_launches(c.steps, c.every) : 0));
    CHECK(after.refused == before.refused);
    if (c.every > 0) CHECK(calls == c.steps / c.every);
    if (c.steps == 600 && c.every == 0) {  // the same 600 steps with and without graphs: bit for bit
      if (!first.data()) {
        first = out;
      } else {
        ts::index_t differ = 0;
        for_each_point<3>(n, 1, [&](auto... i) { differ += !(out(i...) == first(i...)); });
        CHECK(differ == 0);
      }
    }
  }
}
