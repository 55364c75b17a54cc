// What once crashed, hung or overflowed in the API is a named error or the right answer:
// an exception from a point function, thread counts and fusion degrees out of range,
// counters of zero, axes and plane ranges out of range, copies between overlapping views,
// coefficients beyond the element type, Kokkos initialised by several threads at once.
#include <doctest/doctest.h>

#include <climits>
#include <cstdint>
#include <stdexcept>
#include <thread>
#include <vector>

#include <tessera/algorithms/multigrid.hpp>

#include "../../apps/tessera/problems.hpp"
#include "../support/test_support.hpp"

namespace ts = tessera;
using namespace ts::test;

namespace {

/// A point function that throws at one point (u > threshold), as a user's may.
struct throws_at_peak {
  using reach_type = ts::reach<1>;
  double threshold = 0;
  template <class U>
  double operator()(const U& u) const {
    if (u() > threshold) throw std::runtime_error("negative density at the peak");
    return u(ts::off<0, 0, 1>) - u();
  }
};

}  // namespace

TEST_CASE_TEMPLATE("a point function's exception reaches the caller from every host policy", P, ts::host::serial,
                   ts::host::parallel, ts::automatic) {
  // large enough for host::parallel's threads (>= 16384 points), the peak in one thread's rows
  ts::View<double, 3> u("u", ts::extents{40, 41, 43}, 1), out("out", u.layout());
  fill_random(u, 7);
  u(31, 7, 12) = 5.0;
  static_assert(!noexcept(throws_at_peak{}(std::declval<ts::field<double, 3, 1>>())));
  CHECK_THROWS_WITH_AS(ts::apply(P{}, throws_at_peak{2.0}, u, out), "negative density at the peak",
                       std::runtime_error);
  // and the same function runs to the end where nothing throws
  CHECK_NOTHROW(ts::apply(P{}, throws_at_peak{10.0}, u, out));
  CHECK(out(3, 4, 5) == u(3, 4, 6) - u(3, 4, 5));
}

TEST_CASE("host::parallel refuses a team or a fusion degree out of range, by name") {
  ts::View<float, 3> u("u", ts::extents{8, 8, 8}, 1), v("v", u.layout());
  fill_random(u, 1);
  const auto st = random_stencil<ts::star<3, 1>, float>(2);
  ts::host::parallel huge;
  huge.num_threads = 100000;  // libgomp overflowed its stack starting it
  CHECK_THROWS_WITH_AS(ts::apply(huge, st, u, v), doctest::Contains("num_threads = 100000"), ts::invalid_argument_error);
  ts::host::parallel negative;
  negative.num_threads = -2;
  CHECK_THROWS_AS(ts::apply(negative, st, u, v), ts::invalid_argument_error);
  ts::host::parallel many_steps;
  many_steps.fuse = INT_MAX;  // overflowed the pass's plane counts
  ts::iterate_options<float, 3, ts::HostSpace> opt;
  opt.boundary = ts::boundary_conditions<3>::uniform(ts::boundary::periodic());
  CHECK_THROWS_WITH_AS(ts::iterate(many_steps, st, u, v, 10, opt), doctest::Contains("fuse = 2147483647"),
                       ts::invalid_argument_error);
  ts::host::parallel fine;
  fine.num_threads = 3;
  fine.fuse = ts::host::parallel::max_fuse;
  CHECK_NOTHROW(ts::iterate(fine, st, u, v, 2, opt));
}

TEST_CASE("counters of zero are refused, not divided by or looped on forever") {
  ts::View<double, 2> a("a", ts::extents{6, 6}, 1), b("b", a.layout()), c("c", a.layout());
  const auto st = ts::wave_step<2>(1.0, 0.01, ts::array<double, 2>{0.1, 0.1});
  const auto bc = ts::boundary_conditions<2>::uniform(ts::boundary::dirichlet(0));
  CHECK_THROWS_WITH_AS(ts::leapfrog(ts::host::serial{}, st, a, b, c, 4, bc, [](int) {}, 0),
                       doctest::Contains("every = 0"), ts::invalid_argument_error);
  CHECK_THROWS_AS(ts::leapfrog(ts::host::serial{}, st, a, b, c, -1, bc), ts::invalid_argument_error);
  ts::View<double, 2> f("f", ts::extents{6, 6}, 1), u("u", f.layout()), s("s", f.layout());
  fill_random(f, 3);
  for (int every : {0, -1})
    CHECK_THROWS_WITH_AS(ts::jacobi_poisson(ts::host::serial{}, f, u, s, 0.1, bc, 1e-8, 100, every),
                         doctest::Contains("check_every"), ts::invalid_argument_error);
  f(2, 2) = std::numeric_limits<double>::quiet_NaN();
  CHECK_THROWS_WITH_AS(ts::jacobi_poisson(ts::host::serial{}, f, u, s, 0.1, bc, 1e-8, 100),
                       doctest::Contains("(2, 2)"), ts::invalid_argument_error);
}

TEST_CASE("axes and plane ranges out of range are refused by name") {
  ts::boundary_conditions<3> bc;
  CHECK_THROWS_WITH_AS(bc.set(3, ts::boundary::periodic(), ts::boundary::periodic()),
                       doctest::Contains("axis 3 does not exist"), ts::invalid_argument_error);
  CHECK_THROWS_AS(bc.set(-1, ts::boundary::periodic(), ts::boundary::periodic()), ts::invalid_argument_error);
  ts::View<float, 3> u("u", ts::extents{10, 4, 4}, 1);
  CHECK_THROWS_WITH_AS(u.planes(1, INT64_MAX), doctest::Contains("'u'"), ts::invalid_argument_error);
  CHECK_THROWS_AS(u.planes(INT64_MAX, 2), ts::invalid_argument_error);
  CHECK_THROWS_AS(u.planes(-1, 2), ts::invalid_argument_error);
  CHECK(u.planes(2, 8).extents()[0] == 8);
}

TEST_CASE("deep_copy between overlapping planes of one view is refused, disjoint ones copy") {
  ts::View<double, 3> u("u", ts::extents{12, 5, 6}, 1);
  fill_random(u, 4);
  // planes [0, 4) and [1, 5) share memory (ghost planes included)
  CHECK_THROWS_WITH_AS(ts::deep_copy(u.planes(0, 4), u.planes(1, 4)), doctest::Contains("overlap in memory"),
                       ts::aliasing_error);
  // [0, 4) and [7, 11): with their ghost planes [-1, 5) and [6, 12), apart
  const double before = u(8, 2, 3);
  CHECK_NOTHROW(ts::deep_copy(u.planes(0, 4), u.planes(7, 4)));
  CHECK(u(1, 2, 3) == before);
}

TEST_CASE("finite-difference coefficients beyond the element type are refused") {
  CHECK_THROWS_WITH_AS((ts::fd::laplacian<3, 2>(1e-30f)), doctest::Contains("h = 1e-30"), ts::invalid_argument_error);
  CHECK_THROWS_AS((ts::fd::second_derivative<1, 4>(0, 1e-25f)), ts::invalid_argument_error);
  CHECK_NOTHROW(ts::fd::laplacian<3, 2>(1e-30));  // in double it fits
}

TEST_CASE("Kokkos is initialised once when several threads make their first kokkos::mdrange call at once") {
  // each ctest test is a process of its own: here Kokkos starts uninitialised
  std::vector<ts::View<double, 2>> in, out;
  for (int t = 0; t < 4; ++t) {
    in.emplace_back("in" + std::to_string(t), ts::extents{20, 30}, 1);
    out.emplace_back("out" + std::to_string(t), in.back().layout());
    fill_random(in.back(), 10 + t);
  }
  const auto st = random_stencil<ts::star<2, 1>, double>(5);
  std::vector<std::thread> threads;
  std::vector<int> ok(4, 0);
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      ts::apply(ts::kokkos::mdrange{}, st, in[t], out[t]);
      ok[t] = 1;
    });
  for (auto& th : threads) th.join();
  for (int t = 0; t < 4; ++t) {
    CHECK(ok[t] == 1);
    ts::View<double, 2> ref("ref", in[t].layout());
    ts::apply(ts::host::serial{}, st, in[t], ref);
    // bit for bit where the reference runs on the host; to rounding on a GPU (FMA)
    const double tol = ts::kokkos::reference_runs_on_host() ? 0.0 : agreement_tolerance<double>() * ts::sweep_scale(st, in[t]);
    CHECK(ts::compare(out[t], ref).max_abs_error <= tol);
  }
}

TEST_CASE("seismic3d's snapshot schedule counts in 64 bits: 10000 snapshots of 300000 steps, evenly") {
  const int steps = 300000, snapshots = 10000;
  int written = 0, last_gap = 0, since = 0;
  bool even = true;
  for (long long done = 1; done <= steps; ++done) {
    ++since;
    if (ts::app::snapshot_due(done, snapshots, steps, written)) {
      ++written;
      even = even && (last_gap == 0 || since == last_gap);
      last_gap = since, since = 0;
    }
  }
  CHECK(written == snapshots);  // with an int product, 8,589 once
  CHECK(even);
  CHECK_FALSE(ts::app::snapshot_due(5, 0, 10, 0));
}

// A fixed face (boundary::fixed) keeps the ghosts the caller wrote; a loop that alternates
// two views would read two different sets of them, so each refuses it by face, before
// writing anything.
TEST_CASE("a fixed face is refused by name by every loop and solver that alternates two views") {
  ts::View<double, 2> a("field_a", ts::extents{6, 7}, 1), b("field_b", a.layout()), c("field_c", a.layout());
  fill_random(a, 1);
  fill_random(b, 2);
  const auto b_before = ts::create_mirror_copy(b);
  auto bc = ts::boundary_conditions<2>::uniform(ts::boundary::dirichlet(0));
  bc.set(1, ts::boundary::dirichlet(0), ts::boundary::fixed());
  ts::iterate_options<double, 2, ts::HostSpace> opt;
  opt.boundary = bc;
  const auto heat = ts::heat_step<2, 2>(1.0, 0.05, ts::array<double, 2>{1.0, 1.0});
  ts::host::parallel fused;
  fused.fuse = 3;
  for (const auto& msg : {message_of<ts::unsupported_error>([&] { ts::iterate(ts::host::serial{}, heat, a, b, 4, opt); }),
                          message_of<ts::unsupported_error>([&] { ts::iterate(fused, heat, a, b, 4, opt); })}) {
    CHECK(msg.find("'field_a'") != std::string::npos);
    CHECK(msg.find("face 3 (axis 1, high side) is fixed") != std::string::npos);
    CHECK(msg.find("tessera::apply") != std::string::npos);
  }
  int changed = 0;
  for_each_point<2>(b.extents(), 1, [&](ts::index_t y, ts::index_t x) { changed += b(y, x) != b_before(y, x); });
  CHECK(changed == 0);
  const auto wave = ts::wave_step<2>(1.0, 0.01, ts::array<double, 2>{0.1, 0.1});
  CHECK_THROWS_WITH_AS(ts::leapfrog(ts::host::serial{}, wave, a, b, c, 4, bc), doctest::Contains("face 3"),
                       ts::unsupported_error);
  CHECK_THROWS_WITH_AS(ts::jacobi_poisson(ts::host::serial{}, a, b, c, 0.1, bc, 1e-8, 100), doctest::Contains("face 3"),
                       ts::unsupported_error);
  const auto laplacian = ts::fd::laplacian<2, 2>(ts::array<double, 2>{0.1, 0.1});
  CHECK_THROWS_WITH_AS(ts::multigrid_solve(ts::host::serial{}, ts::poisson_operator<ts::HostSpace>(laplacian), a, b, bc),
                       doctest::Contains("face 3"), ts::unsupported_error);
  // fill_ghosts takes it: the other faces filled, the fixed one's ghosts left
  const auto a_before = ts::create_mirror_copy(a);
  ts::fill_ghosts(a, bc);
  CHECK(a(-1, 2) == 0.0);
  CHECK(a(2, 7) == a_before(2, 7));
  CHECK(ts::to_string(ts::boundary_kind::fixed) == "fixed");
}
