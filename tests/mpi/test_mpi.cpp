// The distributed layer (tessera::mpi) under mpirun -np 1, 2, 4, 8: every rank runs every
// case (collective: only CHECKs, never REQUIRE, so no rank leaves a case early). Each
// case builds the same global random field on every rank, runs the single-process
// computation on it locally, runs the distributed one, and compares every rank's block
// (ghosts included where they are defined) with the matching part of the global result:
// bit for bit where the order of operations is the same. Process grids: every grid of
// the communicator's size with one, two or three split axes that the grid allows.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>
#include <mpi.h>

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <tessera/algorithms/point_functions.hpp>
#include <tessera/mpi/mpi.hpp>

#include "../support/test_support.hpp"
#include "mpi_test_support.hpp"

namespace ts = tessera;
namespace tmpi = tessera::mpi;
using namespace ts::test;

using namespace mpi_test;

TEST_CASE("each process's OpenMP threads are its share of the node's cores, at most what it may use") {
  CHECK(tmpi::threads_per_rank(32, 2, 32) == 16);
  CHECK(tmpi::threads_per_rank(32, 2, 1) == 1);  // bound to one core by the launcher
  CHECK(tmpi::threads_per_rank(16, 3, 16) == 5);
  CHECK(tmpi::threads_per_rank(2, 8, 2) == 1);   // oversubscribed: one thread each
  CHECK(tmpi::threads_per_rank(8, 1, 8) == 8);
  // the suite runs with OMP_NUM_THREADS=1, which share_node_cores leaves as it is
  CHECK(tmpi::share_node_cores(MPI_COMM_WORLD) == 1);
}

TEST_CASE("the blocks of a domain tile the global grid, neighbours agree") {
  const ts::extents<3> global{37, 29, 53};  // primes: blocks of unequal sizes
  for (const auto& dims : process_grids<3>()) {
    const tmpi::cartesian_domain<3> dom(MPI_COMM_WORLD, global, {true, false, false}, dims);
    INFO(grid_text(dom));
    long long mine = dom.local_extents().size(), total = 0;
    MPI_Allreduce(&mine, &total, 1, MPI_LONG_LONG, MPI_SUM, dom.comm());
    CHECK(total == global.size());
    for (int a = 0; a < 3; ++a) {
      // along each axis, blocks differ by at most one point, and the last ends at N
      const ts::index_t base = global[a] / dom.dims()[a];
      CHECK(dom.local_extents()[a] >= base);
      CHECK(dom.local_extents()[a] <= base + 1);
      if (dom.coords()[a] == dom.dims()[a] - 1) CHECK(dom.offset()[a] + dom.local_extents()[a] == global[a]);
      CHECK(dom.on_global_boundary(a, 0) == (dom.coords()[a] == 0));
      if (!dom.periodic(a) && dom.on_global_boundary(a, 0)) CHECK(dom.neighbour(a, 0) == MPI_PROC_NULL);
      if (dom.periodic(a)) CHECK(dom.neighbour(a, 0) != MPI_PROC_NULL);
    }
  }
}

TEST_CASE("overlapping_process_grid: a slab while every block keeps 4 ghost widths of axis 0, else the domain chooses") {
  const int p = world_size();
  for (int ghost : {1, 2, 4}) {
    for (ts::index_t n0 : {ts::index_t(4 * ghost * p), ts::index_t(4 * ghost * p + p - 1), ts::index_t(4 * ghost * p - 1)}) {
      const ts::extents<3> global{n0, 7, 5};
      const auto dims = tmpi::overlapping_process_grid(global, p, ghost);
      INFO("ghost " << ghost << ", n0 " << n0 << ", " << p << " processes");
      const bool slab = p > 1 && n0 / p >= 4 * ghost;
      CHECK(dims == (slab ? std::array<int, 3>{p, 1, 1} : std::array<int, 3>{0, 0, 0}));
      // either way it is a grid cartesian_domain accepts; a slab's thinnest block holds 4g planes
      const tmpi::cartesian_domain<3> dom(MPI_COMM_WORLD, global, {}, dims);
      if (slab) {
        CHECK(dom.dims() == std::array<int, 3>{p, 1, 1});
        long long mine = dom.local_extents()[0], thinnest = 0;
        MPI_Allreduce(&mine, &thinnest, 1, MPI_LONG_LONG, MPI_MIN, dom.comm());
        CHECK(thinnest >= 4 * ghost);
      }
    }
  }
  CHECK(tmpi::overlapping_process_grid(ts::extents<3>{1000, 10, 10}, 1, 1) == std::array<int, 3>{0, 0, 0});
  CHECK(tmpi::overlapping_process_grid(ts::extents<1>{1000}, 4, 1) == std::array<int, 1>{0});
  CHECK(tmpi::overlapping_process_grid(ts::extents<2>{1000, 10}, 4, 0) == std::array<int, 2>{0, 0});
}

TEST_CASE("overlapping_process_grid: the fewest halo cells with the last axis whole, block grids included") {
  using g3 = std::array<int, 3>;
  // a cube: 2x2x1 moves two interfaces where the slab moves three; on 2, the slab wins the tie
  CHECK(tmpi::overlapping_process_grid(ts::extents<3>{512, 512, 512}, 4, 1) == g3{2, 2, 1});
  CHECK(tmpi::overlapping_process_grid(ts::extents<3>{512, 512, 512}, 2, 1) == g3{2, 1, 1});
  CHECK(tmpi::overlapping_process_grid(ts::extents<3>{512, 512, 512}, 8, 1) == g3{4, 2, 1});
  // long grids are cut across their length, even along axis 1; the last axis never
  CHECK(tmpi::overlapping_process_grid(ts::extents<3>{1024, 64, 64}, 4, 1) == g3{4, 1, 1});
  CHECK(tmpi::overlapping_process_grid(ts::extents<3>{64, 1024, 64}, 4, 1) == g3{1, 4, 1});
  CHECK(tmpi::overlapping_process_grid(ts::extents<3>{64, 64, 1024}, 4, 1) == g3{2, 2, 1});
  // every split axis keeps 4 ghost widths a block: 30 / 2 = 15 < 16 along axis 1 -> the slab
  CHECK(tmpi::overlapping_process_grid(ts::extents<3>{64, 30, 64}, 4, 4) == g3{4, 1, 1});
  CHECK(tmpi::overlapping_process_grid(ts::extents<3>{15, 15, 512}, 4, 4) == g3{0, 0, 0});
  CHECK(tmpi::overlapping_process_grid(ts::extents<2>{1000, 1000}, 4, 1) == std::array<int, 2>{4, 1});
  // whatever it returns fits: product, whole last axis, 4 ghost widths along each split axis
  for (int p = 2; p <= 12; ++p)
    for (const ts::extents<3> global : {ts::extents<3>{96, 40, 33}, ts::extents<3>{17, 200, 9}, ts::extents<3>{50, 50, 50}})
      for (int ghost : {1, 2}) {
        const auto dims = tmpi::overlapping_process_grid(global, p, ghost);
        INFO(p, " processes, ", global.to_string(), ", ghost ", ghost);
        if (dims == g3{}) continue;
        CHECK(dims[0] * dims[1] * dims[2] == p);
        CHECK(dims[2] == 1);
        for (int a = 0; a < 2; ++a)
          if (dims[a] > 1) CHECK(global[a] / dims[a] >= 4 * ghost);
        CHECK(tmpi::overlap_possible<3>(dims, ts::extents<3>{global[0] / dims[0], global[1] / dims[1], global[2]}, ghost));
      }
}

TEST_CASE("overlap_boxes: the inner box reads no halo of a split axis, the shell's boxes and it tile the block") {
  std::mt19937 gen(51);
  int tried = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const int g = 1 + int(gen() % 3);
    std::array<int, 3> dims{1 + int(gen() % 3), 1 + int(gen() % 3), trial % 5 == 0 ? 2 : 1};
    const ts::extents<3> n{1 + ts::index_t(gen() % 12), 1 + ts::index_t(gen() % 12), 1 + ts::index_t(gen() % 9)};
    const bool split = dims[0] > 1 || dims[1] > 1;
    bool thick = true;
    for (int a = 0; a < 3; ++a) thick = thick && (dims[a] == 1 || n[a] > 2 * g);
    INFO("dims ", dims[0], "x", dims[1], "x", dims[2], ", block ", n.to_string(), ", ghost ", g);
    CHECK(tmpi::overlap_possible<3>(dims, n, g) == (split && thick && dims[2] == 1));
    if (!tmpi::overlap_possible<3>(dims, n, g)) continue;
    ++tried;
    // every face waits (the default), or a random set of them (the faces with a neighbour,
    // and global faces that a step fills); at least one side of each split axis waits
    tmpi::faces_waiting<3> waits{};
    for (auto& f : waits) f = {true, true};
    const bool some = trial % 2 == 1;
    if (some)
      for (auto& f : waits) {
        const auto r = gen() % 3;
        f = {r != 1, r != 2};
      }
    const auto s = some ? tmpi::overlap_boxes<3>(dims, n, g, waits) : tmpi::overlap_boxes<3>(dims, n, g);
    // how many boxes hold each cell: exactly one
    std::vector<int> covered(std::size_t(n.size()), 0);
    auto mark = [&](const tmpi::block_box<3>& b) {
      CHECK(b.first[2] == 0);  // whole rows
      CHECK(b.count[2] == n[2]);
      for (ts::index_t z = b.first[0]; z < b.first[0] + b.count[0]; ++z)
        for (ts::index_t y = b.first[1]; y < b.first[1] + b.count[1]; ++y)
          for (ts::index_t x = b.first[2]; x < b.first[2] + b.count[2]; ++x) ++covered[std::size_t((z * n[1] + y) * n[2] + x)];
    };
    mark(s.inner);
    for (const auto& b : s.shell) mark(b);
    CHECK(std::count(covered.begin(), covered.end(), 1) == ts::index_t(covered.size()));
    std::size_t slabs = 0;
    for (int a = 0; a < 3; ++a)
      if (dims[a] > 1) slabs += std::size_t(waits[a][0]) + std::size_t(waits[a][1]);
    CHECK(s.shell.size() == slabs);
    // the inner box and its reach stay inside the block on every waiting face of a split
    // axis, and reach the faces that do not wait
    for (int a = 0; a < 3; ++a)
      if (dims[a] > 1) {
        CHECK(s.inner.first[a] == (waits[a][0] ? g : 0));
        CHECK(n[a] - s.inner.first[a] - s.inner.count[a] == (waits[a][1] ? g : 0));
      } else {
        CHECK(s.inner.count[a] == n[a]);
      }
  }
  CHECK(tried > 50);
  // on a domain: the faces with a neighbour wait, the global faces only where steps fill them
  const tmpi::cartesian_domain<3> dom(MPI_COMM_WORLD, ts::extents<3>{16, 16, 16}, {false, true, false});
  for (const bool filled : {false, true}) {
    const auto w = tmpi::faces_waiting_for_halos(dom, filled);
    for (int a = 0; a < 3; ++a)
      for (int side = 0; side < 2; ++side)
        CHECK(w[a][side] == (filled || a == 1 || !dom.on_global_boundary(a, side)));
  }
}

TEST_CASE("the process grid moves the fewest halo cells: long grids cut across their length, ties stay balanced") {
  using g3 = std::array<int, 3>;
  const std::array<bool, 3> walls{}, around{true, true, true};
  // a long grid: MPI_Dims_create's 2x2x1 cuts the long axes (4096 + 65536 cells), slabs 3 x 4096
  CHECK(tmpi::fewest_halo_cells_grid(ts::extents<3>{1024, 64, 64}, 4, walls, g3{}, g3{2, 2, 1}) == g3{4, 1, 1});
  CHECK(tmpi::halo_cells(ts::extents<3>{1024, 64, 64}, walls, g3{4, 1, 1}) == 3 * 64 * 64);
  CHECK(tmpi::fewest_halo_cells_grid(ts::extents<3>{64, 64, 64}, 8, walls, g3{}, g3{2, 2, 2}) == g3{2, 2, 2});
  // a tie keeps the balanced grid: 21^3 periodic on 4, slabs and 2x2x1 both 4 x 441
  CHECK(tmpi::fewest_halo_cells_grid(ts::extents<3>{21, 21, 21}, 4, around, g3{}, g3{2, 2, 1}) == g3{2, 2, 1});
  CHECK(tmpi::fewest_halo_cells_grid(ts::extents<3>{21, 21, 21}, 4, around, g3{}, g3{1, 2, 2}) == g3{1, 2, 2});
  // fixed axes stay; every block keeps a point an axis (3 points cannot take 8 processes)
  CHECK(tmpi::fewest_halo_cells_grid(ts::extents<3>{1024, 64, 64}, 4, walls, g3{0, 2, 0}, g3{2, 2, 1}) == g3{2, 2, 1});
  CHECK(tmpi::fewest_halo_cells_grid(ts::extents<3>{3, 1000, 1000}, 8, walls, g3{}, g3{2, 2, 2})[0] <= 3);
  // a preferred grid that leaves a block empty gives way even to a worse one
  const auto thin = tmpi::fewest_halo_cells_grid(ts::extents<3>{1, 50, 50}, 2, walls, g3{}, g3{2, 1, 1});
  CHECK(thin[0] == 1);
  CHECK(thin[0] * thin[1] * thin[2] == 2);
  // against every grid, by brute force: the answer fits, keeps the fixed axes and moves no more cells
  std::mt19937 rng(5);
  for (int trial = 0; trial < 300; ++trial) {
    const ts::extents<3> global{1 + int(rng() % 90), 1 + int(rng() % 90), 1 + int(rng() % 90)};
    const int p = 1 + int(rng() % 12);
    const std::array<bool, 3> periodic{rng() % 2 == 0, rng() % 2 == 0, rng() % 2 == 0};
    g3 fixed{};
    if (rng() % 3 == 0) fixed[rng() % 3] = 1 + int(rng() % 2);
    const auto got = tmpi::fewest_halo_cells_grid(global, p, periodic, fixed, g3{p, 1, 1});
    INFO(global.to_string() << " on " << p << ", got " << got[0] << "x" << got[1] << "x" << got[2]);
    bool any = false;
    for (int a = 1; a <= p; ++a)
      for (int b = 1; a * b <= p; ++b) {
        if (p % (a * b) != 0) continue;
        const g3 d{a, b, p / (a * b)};
        bool ok = true;
        for (int x = 0; x < 3; ++x) ok = ok && global[x] >= d[x] && (fixed[x] == 0 || fixed[x] == d[x]);
        if (!ok) continue;
        any = true;
        CHECK(tmpi::halo_cells(global, periodic, got) <= tmpi::halo_cells(global, periodic, d));
      }
    if (any) {
      CHECK(got[0] * got[1] * got[2] == p);
      for (int x = 0; x < 3; ++x) CHECK((global[x] >= got[x] && (fixed[x] == 0 || fixed[x] == got[x])));
    }
  }
  // a domain with free axes takes that grid
  const int p = world_size();
  const ts::extents<3> long_grid{64 * p, 8, 8};
  const tmpi::cartesian_domain<3> dom(MPI_COMM_WORLD, long_grid, {}, {});
  CHECK(dom.dims() == g3{p, 1, 1});
}

TEST_CASE("a domain refuses an axis with fewer points than processes, by name") {
  const int p = world_size();
  if (p > 1) {
    const auto msg = message_of<ts::invalid_argument_error>([&] {
      tmpi::cartesian_domain<2> dom(MPI_COMM_WORLD, ts::extents<2>{p - 1, 40}, {}, {p, 1});
    });
    CHECK(msg.find("axis 0 has " + std::to_string(p - 1) + " points for " + std::to_string(p) + " processes") !=
          std::string::npos);
  }
  const auto msg = message_of<ts::invalid_argument_error>(
      [&] { tmpi::cartesian_domain<2> dom(MPI_COMM_WORLD, ts::extents<2>{40, 40}, {}, {p + 1, 1}); });
  CHECK(msg.find("does not fit " + std::to_string(p) + " processes") != std::string::npos);
}

TEST_CASE_TEMPLATE("halos after fill_halos equal fill_ghosts of the undistributed field", T, float, double) {
  for (int g : {1, 2}) {
    const ts::extents<3> global{13, 11, 17};
    ts::View<T, 3> ref("global", global, g);
    for (const auto& bc : boundary_cases<3>()) {
      fill_random(ref, 7);
      ts::fill_ghosts(ref, bc);
      for (const auto& dims : process_grids<3>()) {
        const tmpi::cartesian_domain<3> dom(MPI_COMM_WORLD, global, periodic_axes(bc), dims);
        tmpi::distributed_view<T, 3> u("u", dom, g);
        if (thinner_than(dom, g)) continue;
        poison(u.local());
        ts::View<T, 3> src("src", global, g);
        fill_random(src, 7);
        tmpi::scatter_from(src, u);
        tmpi::fill_halos(u, bc);
        INFO(grid_text(dom), ", ghost ", g, ", ", bc_text(bc));
        CHECK(block_mismatches(u, ref, g) == 0);
      }
    }
  }
}

TEST_CASE("2D fields: halos and gather") {
  const ts::extents<2> global{23, 31};
  for (const auto& bc : boundary_cases<2>()) {
    ts::View<double, 2> ref("global", global, 2);
    fill_random(ref, 3);
    ts::fill_ghosts(ref, bc);
    for (const auto& dims : process_grids<2>()) {
      const tmpi::cartesian_domain<2> dom(MPI_COMM_WORLD, global, periodic_axes(bc), dims);
      if (thinner_than(dom, 2)) continue;
      tmpi::distributed_view<double, 2> u("u", dom, 2);
      tmpi::scatter_from(ref, u);
      tmpi::fill_halos(u, bc);
      INFO(grid_text(dom), ", ", bc_text(bc));
      CHECK(block_mismatches(u, ref, 2) == 0);
      const auto all = tmpi::gather(u);
      if (dom.rank() == 0) {
        CHECK(all.allocated());
        ts::index_t bad = 0;
        for_each_point<2>(global, 0, [&](auto y, auto x) { bad += !(all(y, x) == ref(y, x)); });
        CHECK(bad == 0);
      } else {
        CHECK(!all.allocated());
      }
    }
  }
}

template <class P, class S, class T>
void check_iterate(int steps, std::uint64_t seed) {
  constexpr int g = ts::shape_traits<S>::radius;
  const ts::extents<3> global{19, 14, 23};
  const auto st = [&] {
    auto s = random_stencil<S, T>(seed);
    T sum = 0;
    for (auto& c : s.coeffs) c = c < 0 ? -c : c, sum += c;
    for (auto& c : s.coeffs) c /= sum;  // an averaging step: stays bounded over many steps
    return s;
  }();
  ts::View<T, 3> init("init", global, g);
  fill_random(init, seed + 1);
  for (const auto& bc : boundary_cases<3>()) {
    const auto ref = serial_reference(st, init, steps, bc);
    for (const auto& dims : process_grids<3>()) {
      const tmpi::cartesian_domain<3> dom(MPI_COMM_WORLD, global, periodic_axes(bc), dims);
      if (thinner_than(dom, g)) continue;
      tmpi::distributed_view<T, 3> u("u", dom, g), scratch("scratch", u);
      tmpi::scatter_from(init, u);
      const auto r = tmpi::iterate(P{}, st, u, scratch, steps, bc);
      INFO(P::name(), " ", ts::shape_name<S>(), ", ", grid_text(dom), ", ", bc_text(bc));
      CHECK(block_mismatches(r, ref, 0) == 0);  // bit for bit
      CHECK(block_mismatches(r, ref, g) == 0);  // the halos too: filled as one process fills its ghosts
      const double nm = tmpi::norm_max(r), nl = tmpi::norm_l2(r), dt = tmpi::dot(r, r);
      CHECK(nm == ts::norm_max(ref));
      CHECK(std::abs(nl - ts::norm_l2(ref)) <= 1e-12 * ts::norm_l2(ref) + (sizeof(T) == 4 ? 1e-6 : 0) * nl);
      CHECK(std::abs(dt - ts::dot(ref, ref)) <= (sizeof(T) == 4 ? 1e-5 : 1e-12) * dt);
    }
  }
}

TEST_CASE("distributed iterate equals one process bit for bit: stars, boxes, every boundary kind") {
  check_iterate<ts::host::serial, ts::star<3, 1>, double>(7, 11);
  check_iterate<ts::host::parallel, ts::box<3, 1>, float>(5, 12);
  check_iterate<ts::host::parallel, ts::star<3, 2>, double>(4, 13);
}

/// Temporal blocking across ranks: halos `depth` r deep, policy fusing `fuse` steps; every
/// rank's block after `steps` steps within rounding of one process's sweep-a-step result,
/// in the view a sweep a step leaves it in, its halos filled.
template <class S, class T>
void check_fused_across_ranks(int depth, int fuse, int steps, std::uint64_t seed) {
  constexpr int r = ts::shape_traits<S>::radius;
  const ts::extents<3> global{21, 17, 26};
  const auto st = symmetric_averaging_stencil<S, T>(seed);
  const ts::host::parallel policy{.num_threads = 2, .fuse = fuse};
  const double tol = sizeof(T) == 4 ? 2e-6 : 1e-13;
  int fused_cases = 0;
  ts::View<T, 3> init("init", global, r);
  fill_random(init, seed + 1);
  for (const auto& bc : boundary_cases<3>()) {
    const auto ref = serial_reference(st, init, steps, bc);
    for (const auto& dims : process_grids<3>()) {
      const tmpi::cartesian_domain<3> dom(MPI_COMM_WORLD, global, periodic_axes(bc), dims);
      if (thinner_than(dom, depth * r)) continue;
      tmpi::distributed_view<T, 3> u("u", dom, depth * r), scratch("scratch", u);
      tmpi::scatter_from(init, u);
      // halos hold NaN sentinels: the passes must exchange them (and leave none behind)
      for (const auto* v : {&u, &scratch}) {
        const auto& l = v->local();
        for_each_point<3>(l.extents(), depth * r, [&](auto z, auto y, auto x) {
          if (z < 0 || y < 0 || x < 0 || z >= l.extents()[0] || y >= l.extents()[1] || x >= l.extents()[2])
            l(z, y, x) = std::numeric_limits<T>::quiet_NaN();
        });
      }
      const int k = tmpi::steps_between_exchanges(policy, st, u, std::optional(bc));
      // Dirichlet walls: a stencil reading past the wall fuses one step (edge_rules.hpp)
      const bool reads_past_wall = r > 1 && std::any_of(bc.faces.begin(), bc.faces.end(), [](const auto& f) {
                                     return f.kind == ts::boundary_kind::dirichlet;
                                   });
      INFO(ts::shape_name<S>(), ", depth ", depth, ", fuse ", fuse, ", ", grid_text(dom), ", ", bc_text(bc));
      CHECK(k == (reads_past_wall ? 1 : std::min(depth, fuse)));
      fused_cases += k >= 2;
      const auto res = tmpi::iterate(policy, st, u, scratch, steps, bc);
      CHECK(res.local().data() == (steps % 2 ? scratch : u).local().data());
      double worst = 0;
      const auto& off = dom.offset();
      for_each_point<3>(res.local().extents(), 0, [&](auto z, auto y, auto x) {
        const double d = std::abs(double(res.local()(z, y, x)) - double(ref(z + off[0], y + off[1], x + off[2])));
        worst = std::isnan(d) ? 1e300 : std::max(worst, d);
      });
      CHECK(worst <= tol * std::max(1.0, double(ts::norm_max(ref))));
      // its halos are filled: a fresh fill changes nothing (NaN would stay NaN: counted)
      tmpi::distributed_view<T, 3> again("again", res);
      std::copy(res.local().data(), res.local().data() + res.local().layout().span(), again.local().data());
      tmpi::fill_halos(again, bc);
      ts::index_t differ = 0;
      for_each_point<3>(res.local().extents(), depth * r, [&](auto z, auto y, auto x) {
        differ += !(res.local()(z, y, x) == again.local()(z, y, x));
      });
      CHECK(differ == 0);
    }
  }
  if (world_size() > 1) CHECK(fused_cases > 0);  // the fused path ran, not only the fallback
}

TEST_CASE("temporal blocking across ranks: k steps an exchange equal a sweep a step to rounding, every boundary kind") {
  check_fused_across_ranks<ts::star<3, 1>, double>(3, 4, 7, 21);  // 3 steps an exchange, odd steps
  check_fused_across_ranks<ts::box<3, 1>, float>(2, 4, 6, 22);    // the halos allow 2
  check_fused_across_ranks<ts::star<3, 2>, double>(2, 2, 5, 23);  // periodic and Neumann fuse; walls do not
}

TEST_CASE("temporal blocking across ranks needs a fusing policy, conditions and halos 2 r deep") {
  const tmpi::cartesian_domain<3> dom(MPI_COMM_WORLD, ts::extents<3>{16, 16, 16});
  const auto st = symmetric_averaging_stencil<ts::star<3, 1>, double>(5);
  const auto walls = std::optional(ts::boundary_conditions<3>::uniform(ts::boundary::dirichlet(0)));
  const tmpi::distributed_view<double, 3> deep("deep", dom, 4), thin("thin", dom, 1);
  CHECK(tmpi::steps_between_exchanges(ts::host::parallel{.fuse = 4}, st, deep, walls) == 4);
  CHECK(tmpi::steps_between_exchanges(ts::host::parallel{.fuse = 8}, st, deep, walls) == 4);  // the halos' depth
  CHECK(tmpi::steps_between_exchanges(ts::host::parallel{.fuse = 4}, st, thin, walls) == 1);
  CHECK(tmpi::steps_between_exchanges(ts::host::parallel{.fuse = 4}, st, deep, std::nullopt) == 1);
  CHECK(tmpi::steps_between_exchanges(ts::host::parallel{}, st, deep, walls) == 1);
  CHECK(tmpi::steps_between_exchanges(ts::host::serial{}, st, deep, walls) == 1);
  // Neumann faces with coefficients that do not mirror: one step a pass, so an exchange a step
  const auto lopsided = random_stencil<ts::star<3, 1>, double>(6);
  CHECK(tmpi::steps_between_exchanges(ts::host::parallel{.fuse = 4}, lopsided, deep,
                                      std::optional(ts::boundary_conditions<3>::uniform(ts::boundary::neumann()))) == 1);
}

TEST_CASE("fill_halos refuses blocks thinner than the ghost width on every rank") {
  const int p = world_size();
  if (p >= 2) {
    const tmpi::cartesian_domain<2> dom(MPI_COMM_WORLD, ts::extents<2>{2 * p - 1, 9}, {}, {p, 1});
    tmpi::distributed_view<float, 2> u("thin", dom, 2);  // blocks of 1 or 2 rows, halo 2
    const auto msg = message_of<ts::invalid_argument_error>([&] { tmpi::fill_halos(u); });
    CHECK(msg.find("blocks of 1 point(s) along axis 0") != std::string::npos);
  }
}

TEST_CASE("distributed iterate refuses mismatched views and bad boundary conditions, by name") {
  const tmpi::cartesian_domain<3> dom(MPI_COMM_WORLD, ts::extents<3>{16, 16, 16});
  tmpi::distributed_view<double, 3> u("u", dom, 1), other("wide", dom, 2);
  const auto st = random_stencil<ts::star<3, 1>, double>(1);
  auto msg = message_of<ts::extent_mismatch_error>([&] { tmpi::iterate(ts::host::serial{}, st, u, other, 1); });
  CHECK(msg.find("'wide'") != std::string::npos);
  // periodic conditions on a domain whose axes are not periodic
  msg = message_of<ts::invalid_argument_error>([&] {
    tmpi::fill_halos(u, ts::boundary_conditions<3>::uniform(ts::boundary::periodic()));
  });
  CHECK(msg.find("axis 0 is not periodic in the domain") != std::string::npos);
}

template <class P, class T>
void check_point_functions(std::uint64_t seed) {
  const ts::extents<3> global{19, 14, 23};
  for (const auto& bc : boundary_cases<3>()) {
    // the single-process sweeps, ghosts filled by the boundary conditions
    ts::View<T, 3> up("u_prev", global, 0), u("u", global, 4), c2("c2", global, 0), k("k", global, 1);
    fill_random(up, seed), fill_random(u, seed + 1), fill_random(c2, seed + 2), fill_random(k, seed + 3);
    ts::fill_ghosts(u, bc), ts::fill_ghosts(k, bc);
    ts::View<T, 3> wave_ref("wave_ref", global, 0), diff_ref("diff_ref", global, 0);
    const auto wave = ts::physics::acoustic_step<T>{T(0.04)};
    const auto diffusion = ts::physics::div_k_grad<T>{T(3)};
    ts::apply(ts::host::serial{}, wave, ts::inputs(up, u, c2), wave_ref);
    ts::apply(ts::host::serial{}, diffusion, ts::inputs(u, k), diff_ref);
    for (const auto& dims : process_grids<3>()) {
      const tmpi::cartesian_domain<3> dom(MPI_COMM_WORLD, global, periodic_axes(bc), dims);
      if (thinner_than(dom, 4)) continue;
      tmpi::distributed_view<T, 3> dup("u_prev", dom, 0), du("u", dom, 4), dc2("c2", dom, 0), dk("k", dom, 1),
          wave_out("wave", dom, 0), diff_out("diff", dom, 0);
      // ghosts hold sentinels, not the neighbours' values: apply must exchange u's and k's
      for (const auto* v : {&du, &dk}) std::fill(v->local().data(), v->local().data() + v->local().layout().span(), T(7));
      tmpi::scatter_from(up, dup), tmpi::scatter_from(u, du), tmpi::scatter_from(c2, dc2), tmpi::scatter_from(k, dk);
      tmpi::apply(P{}, wave, tmpi::inputs(dup, du, dc2), wave_out, bc);
      tmpi::apply(P{}, diffusion, tmpi::inputs(du, dk), tmpi::outputs(diff_out), bc);
      INFO(P::name(), ", ", grid_text(dom), ", ", bc_text(bc));
      CHECK(block_mismatches(wave_out, wave_ref, 0) == 0);  // bit for bit
      CHECK(block_mismatches(diff_out, diff_ref, 0) == 0);
    }
  }
}

TEST_CASE("point functions on distributed views equal one process bit for bit, every boundary kind") {
  check_point_functions<ts::host::serial, double>(41);
  check_point_functions<ts::host::parallel, float>(42);
}

TEST_CASE("a distributed point function refuses fields of another domain on every rank, by name") {
  const tmpi::cartesian_domain<3> dom(MPI_COMM_WORLD, ts::extents<3>{16, 16, 16});
  const tmpi::cartesian_domain<3> other(MPI_COMM_WORLD, ts::extents<3>{16, 16, 17});
  tmpi::distributed_view<double, 3> u("u", dom, 1), k("k_elsewhere", other, 1), out("out", dom, 0);
  const auto msg = message_of<ts::extent_mismatch_error>(
      [&] { tmpi::apply(ts::host::serial{}, ts::physics::div_k_grad<double>{1.0}, tmpi::inputs(u, k), out); });
  CHECK(msg.find("'k_elsewhere'") != std::string::npos);
  CHECK(msg.find("one cartesian_domain") != std::string::npos);
}

TEST_CASE("a distributed view written as .pvti pieces reads back whole, in ParaView's layout") {
  // one folder for every rank: rank 0's process id names it
  int pid = static_cast<int>(::getpid());
  MPI_Bcast(&pid, 1, MPI_INT, 0, MPI_COMM_WORLD);
  const auto folder = std::filesystem::temp_directory_path() / ("tessera-mpi-" + std::to_string(pid));
  std::filesystem::create_directories(folder);
  MPI_Barrier(MPI_COMM_WORLD);
  const ts::extents<3> global{9, 12, 10};  // at least 8 points per axis: every grid of up to 8 processes
  ts::View<double, 3> ref("global", global, 1);
  fill_random(ref, 21);
  for (const auto& dims : process_grids<3>()) {
    const tmpi::cartesian_domain<3> dom(MPI_COMM_WORLD, global, {}, dims);
    tmpi::distributed_view<double, 3> u("u", dom, 1), back("back", u);
    tmpi::scatter_from(ref, u);
    const std::string index = (folder / ("field_" + dom.describe_grid() + ".pvti")).string();
    tmpi::write_pvti(index, u, "pressure", ts::io::grid_geometry<3>::cell_centred_unit_box({0.1, 0.1, 0.1}));
    INFO(grid_text(dom));
    const auto sources = ts::io::pvti_sources(index);
    CHECK(static_cast<int>(sources.size()) == dom.size());
    for (const auto& src : sources) CHECK(std::filesystem::is_regular_file(folder / src));
    tmpi::read_pvti(index, back);
    CHECK(block_mismatches(back, ref, 0) == 0);
    if (dom.rank() == 0) {  // the whole file as one process reads it
      const auto whole = ts::io::read_pvti<double, 3>(index, "whole", 0);
      CHECK(max_relative_error(whole, ref) == 0);
    }
  }
  // a second write replaces the first whole: the first's pieces are gone, the folder holds
  // the index and one piece a rank
  {
    const tmpi::cartesian_domain<3> dom(MPI_COMM_WORLD, global);
    const auto sub = folder / "replace";
    if (dom.rank() == 0) std::filesystem::create_directories(sub);
    MPI_Barrier(MPI_COMM_WORLD);
    const std::string index = (sub / "field.pvti").string();
    tmpi::distributed_view<double, 3> u("u", dom, 1), back("back", u);
    tmpi::scatter_from(ref, u);
    tmpi::write_pvti(index, u, "p", ts::io::grid_geometry<3>{});
    const auto first = ts::io::pvti_sources(index);
    tmpi::write_pvti(index, u, "p", ts::io::grid_geometry<3>{});
    const auto second = ts::io::pvti_sources(index);
    CHECK(first != second);
    MPI_Barrier(MPI_COMM_WORLD);
    int files = 0;
    for (const auto& e : std::filesystem::directory_iterator(sub)) files += e.is_regular_file();
    CHECK(files == dom.size() + 1);
    for (const auto& src : first) CHECK_FALSE(std::filesystem::exists(sub / src));
    MPI_Barrier(MPI_COMM_WORLD);  // every rank has counted before the link appears
    // a write that fails (here its index: a link is refused) leaves the earlier index and
    // pieces as they were, and takes back its own pieces
    if (dom.rank() == 0) std::filesystem::create_symlink(sub / "field.pvti", sub / "link.pvti");
    MPI_Barrier(MPI_COMM_WORLD);
    const auto failed = message_of<ts::io::io_error>(
        [&] { tmpi::write_pvti((sub / "link.pvti").string(), u, "p", ts::io::grid_geometry<3>{}); });
    CHECK(failed.find(dom.rank() == 0 ? "symbolic link" : "failed on another rank") != std::string::npos);
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(ts::io::pvti_sources(index) == second);
    files = 0;  // the link not counted
    for (const auto& e : std::filesystem::directory_iterator(sub)) files += e.is_regular_file() && !e.is_symlink();
    CHECK(files == dom.size() + 1);
    tmpi::read_pvti(index, back);
    CHECK(block_mismatches(back, ref, 0) == 0);
    MPI_Barrier(MPI_COMM_WORLD);
  }
  // a failure on one rank is an error on every rank
  const tmpi::cartesian_domain<3> dom(MPI_COMM_WORLD, global);
  tmpi::distributed_view<double, 3> u("u", dom, 0);
  const auto msg = message_of<ts::io::io_error>([&] { tmpi::read_pvti((folder / "none.pvti").string(), u); });
  CHECK(msg.find("none.pvti") != std::string::npos);
  MPI_Barrier(MPI_COMM_WORLD);
  if (dom.rank() == 0) std::filesystem::remove_all(folder);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int worst = run_cases_on_every_rank(argc, argv, "tessera mpi suite");
  MPI_Finalize();
  return worst;
}
