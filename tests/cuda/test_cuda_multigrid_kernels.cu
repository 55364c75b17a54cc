// Multigrid's fused kernels on CUDA views (continued from test_cuda_multigrid.cu, its own
// unit so that neither takes a minute to compile).
#include <doctest/doctest.h>

#include "../support/cuda_support.hpp"
#include "../support/multigrid_checks.hpp"

namespace ts = tessera;
using namespace ts::test;

// The fused kernels of cuda::automatic (tessera/cuda/detail/multigrid_kernels.hpp) against host
// loops written here, with walls as face rules (core/detail/star_level.hpp: beyond face f,
// a[f] * the point beside it + b[f]) of every kind. u's ghosts hold NaN: the kernels read
// none. Sizes cross the step kernel's tiles (60 x 6 columns in 3D, 252 in 2D) and its
// chunks along axis 0 (at least 32 planes) at odd offsets, with odd widths (a last pair of
// columns half outside); u has ghost 2 and out ghost 1
// (other strides); out starts poisoned, so a point the kernel missed shows, and its ghosts
// must keep their sentinel.
namespace {
template <class T, int Rank>
ts::star_level<T, Rank> test_level() {
  ts::star_level<T, Rank> s;
  T wsum = 0;
  for (int d = 0; d < Rank; ++d) wsum += 2 * (s.w[d] = T(0.5 + 0.25 * d));
  s.diag = wsum + T(0.3);
  const T a[] = {T(0), T(1), T(-0.5), T(1), T(0), T(-1.0 / 3)}, b[] = {T(0.7), T(0), T(0), T(0), T(-0.2), T(0)};
  for (int f = 0; f < 2 * Rank; ++f) s.a[f] = a[f], s.b[f] = b[f];
  return s;
}

/// v at point c (an array of coordinates).
template <class V, class C>
auto& at_point(const V& v, const C& c) {
  if constexpr (V::rank == 2) return v(c[0], c[1]);
  else return v(c[0], c[1], c[2]);
}

/// The neighbour of point c along axis d (dir -1 or +1) in v, or the face's rule.
template <class V, class S, class C>
auto neighbour(const V& v, const S& s, C c, int d, int dir) {
  const auto own = at_point(v, c);
  c[d] += dir;
  if (c[d] < 0) return s.a[2 * d] * own + s.b[2 * d];
  if (c[d] >= v.extents()[d]) return s.a[2 * d + 1] * own + s.b[2 * d + 1];
  return at_point(v, c);
}

template <class V, class S, class C>
auto host_star(const V& v, const S& s, const C& c) {
  decltype(s.diag) off = 0;
  for (int d = 0; d < V::rank; ++d) off += s.w[d] * (neighbour(v, s, c, d, 1) + neighbour(v, s, c, d, -1));
  return s.diag * at_point(v, c) - off;
}

template <class T, int Rank>
void poison_ghosts(const ts::View<T, Rank, ts::HostSpace>& v, T value) {
  for_each_point<Rank>(v.extents(), v.ghost(), [&](auto... i) {
    const ts::index_t c[] = {static_cast<ts::index_t>(i)...};
    bool ghost = false;
    for (int d = 0; d < Rank; ++d) ghost |= c[d] < 0 || c[d] >= v.extents()[d];
    if (ghost) v(i...) = value;
  });
}

/// The host step, in place on a copy of u (a host view's mirror would share its memory).
template <class T, int Rank>
ts::View<T, Rank, ts::HostSpace> host_red_black_step(const ts::View<T, Rank, ts::HostSpace>& u_h,
                                                     const ts::View<T, Rank, ts::HostSpace>& g_h,
                                                     const ts::star_level<T, Rank>& s, T weight, int first) {
  ts::View<T, Rank, ts::HostSpace> ref("ref", u_h.layout());
  ts::deep_copy(ref, u_h);
  for (const int colour : {first, 1 - first})
    for_each_point<Rank>(u_h.extents(), 0, [&](auto... i) {
      const ts::array<ts::index_t, Rank> c{{static_cast<ts::index_t>(i)...}};
      ts::index_t parity = 0;
      for (int d = 0; d < Rank; ++d) parity += c[d];
      if (parity % 2 != colour) return;
      T off = 0;
      for (int d = 0; d < Rank; ++d) off += s.w[d] * (neighbour(ref, s, c, d, 1) + neighbour(ref, s, c, d, -1));
      const T old = ref(i...);
      ref(i...) = old + weight * ((g_h(i...) + off) / s.diag - old);
    });
  return ref;
}

template <class T, int Rank>
void check_red_black_step_kernel(const ts::extents<Rank>& n, int first, std::uint64_t seed) {
  CAPTURE(n.to_string());
  CAPTURE(first);
  CAPTURE(sizeof(T));
  ts::View<T, Rank, ts::HostSpace> u_h("u", n, 2), g_h("g", n, 1), out_h("out", n, 1);
  fill_random(u_h, seed);
  fill_random(g_h, seed + 1);
  poison_ghosts(u_h, std::numeric_limits<T>::quiet_NaN());
  for_each_point<Rank>(n, 0, [&](auto... i) { out_h(i...) = std::numeric_limits<T>::quiet_NaN(); });
  const T sentinel = T(-777);
  poison_ghosts(out_h, sentinel);
  const auto s = test_level<T, Rank>();
  const T weight = T(1.2);
  auto u = on_space<T, Rank, ts::CudaSpace>(u_h, "u_d");
  auto g = on_space<T, Rank, ts::CudaSpace>(g_h, "g_d");
  auto out = on_space<T, Rank, ts::CudaSpace>(out_h, "out_d");
  const auto ref = host_red_black_step(u_h, g_h, s, weight, first);
  const ts::view_accessor<const T, Rank> ua = u.accessor(), ga = g.accessor();
  ts::cuda::red_black_step_device<T, Rank>(ua, ga, out.accessor(), s, weight, first);
  ts::cuda::synchronize();
  const auto got = ts::create_mirror_copy(out);
  const double tol = sizeof(T) == 4 ? 2e-6 : 1e-14;
  double worst = 0;
  long long bad_ghosts = 0;
  for_each_point<Rank>(n, 1, [&](auto... i) {
    const ts::index_t c[] = {static_cast<ts::index_t>(i)...};
    bool ghost = false;
    for (int d = 0; d < Rank; ++d) ghost |= c[d] < 0 || c[d] >= n[d];
    if (ghost) {
      bad_ghosts += got(i...) != sentinel;
      return;
    }
    const double e = std::fabs(double(got(i...)) - double(ref(i...)));
    worst = std::isnan(e) ? INFINITY : std::max(worst, e);
  });
  CHECK(worst <= tol);
  CHECK(bad_ghosts == 0);
  // the host step moved the points (a kernel that copied u would fail above)
  CHECK(max_diff(ref, u_h) > 0.01);
  // the step that also measures its input's residual: the same output, and max |g - A' u|
  double want_norm = 0;
  for_each_point<Rank>(n, 0, [&](auto... i) {
    const ts::array<ts::index_t, Rank> c{{static_cast<ts::index_t>(i)...}};
    want_norm = std::max(want_norm, std::fabs(double(g_h(i...) - host_star(u_h, s, c))));
  });
  auto out2 = on_space<T, Rank, ts::CudaSpace>(out_h, "out2_d");
  const double got_norm = ts::cuda::red_black_step_residual_device<T, Rank>(ua, ga, out2.accessor(), s, weight, first);
  CHECK(want_norm > 0.1);
  CHECK(std::fabs(got_norm - want_norm) <= (sizeof(T) == 4 ? 1e-5 : 1e-13) * want_norm);
  CHECK(max_diff(ts::create_mirror_copy(out2), got) == 0);
}

/// The step on windows whose pairs of columns do not start on 16 bytes (each view's
/// interior shifted one point along x, as a sub-box of a larger grid is): the kernel takes
/// its scalar path and must give the same answer. The column before each window is poisoned
/// (NaN in u and g) and must stay unwritten (NaN in out).
template <class T, int Rank>
void check_red_black_step_unaligned(const ts::extents<Rank>& n, int first, std::uint64_t seed) {
  CAPTURE(n.to_string());
  CAPTURE(first);
  constexpr int X = Rank - 1;
  ts::View<T, Rank, ts::HostSpace> u_h("u", n, 1), g_h("g", n, 1);
  fill_random(u_h, seed);
  fill_random(g_h, seed + 1);
  const auto s = test_level<T, Rank>();
  const T weight = T(0.9);
  const auto ref = host_red_black_step(u_h, g_h, s, weight, first);
  ts::extents<Rank> big = n;
  big[X] += 1;
  const T nan = std::numeric_limits<T>::quiet_NaN();
  ts::View<T, Rank, ts::HostSpace> ub_h("u_big", big, 1), gb_h("g_big", big, 1), ob_h("out_big", big, 1);
  for (auto* v : {&ub_h, &gb_h, &ob_h})
    for_each_point<Rank>(big, 1, [&](auto... i) { (*v)(i...) = nan; });
  for_each_point<Rank>(n, 0, [&](auto... i) {
    ts::array<ts::index_t, Rank> c{{static_cast<ts::index_t>(i)...}};
    const T uv = u_h(i...), gv = g_h(i...);
    c[X] += 1;
    at_point(ub_h, c) = uv;
    at_point(gb_h, c) = gv;
  });
  auto ub = on_space<T, Rank, ts::CudaSpace>(ub_h, "u_big_d");
  auto gb = on_space<T, Rank, ts::CudaSpace>(gb_h, "g_big_d");
  auto ob = on_space<T, Rank, ts::CudaSpace>(ob_h, "out_big_d");
  const auto window = [&](auto acc) {
    acc.origin += acc.stride[X];
    acc.n[X] -= 1;
    return acc;
  };
  const ts::view_accessor<const T, Rank> ua = window(ub.accessor()), ga = window(gb.accessor());
  ts::cuda::red_black_step_device<T, Rank>(ua, ga, window(ob.accessor()), s, weight, first);
  ts::cuda::synchronize();
  const auto got = ts::create_mirror_copy(ob);
  const double tol = sizeof(T) == 4 ? 2e-6 : 1e-14;
  double worst = 0;
  long long written_outside = 0;
  for_each_point<Rank>(big, 0, [&](auto... i) {
    ts::array<ts::index_t, Rank> c{{static_cast<ts::index_t>(i)...}};
    const T v = at_point(got, c);
    if (c[X] == 0) {
      written_outside += !std::isnan(v);
      return;
    }
    c[X] -= 1;
    const double e = std::fabs(double(v) - double(at_point(ref, c)));
    worst = std::isnan(e) ? INFINITY : std::max(worst, e);
  });
  CHECK(worst <= tol);
  CHECK(written_outside == 0);
  CHECK(max_diff(ref, u_h) > 0.01);
  // a NaN in u's interior reaches the measured norm
  at_point(ub_h, [&] {
    ts::array<ts::index_t, Rank> c{};
    for (int d = 0; d < Rank; ++d) c[d] = n[d] / 2;
    c[X] += 1;
    return c;
  }()) = nan;
  auto ub2 = on_space<T, Rank, ts::CudaSpace>(ub_h, "u_nan_d");
  const ts::view_accessor<const T, Rank> ua2 = window(ub2.accessor());
  CHECK(std::isnan(ts::cuda::red_black_step_residual_device<T, Rank>(ua2, ga, window(ob.accessor()), s, weight, first)));
}

/// v's interior on the device one column further along the contiguous axis, in a view one
/// column wider whose other points (ghosts, the column before) are NaN: window() starts off
/// the 16-byte boundary a pair of columns needs, so the kernels take their scalar paths.
template <class T, int Rank>
struct shifted_view {
  ts::View<T, Rank, ts::CudaSpace> big;
  ts::view_accessor<T, Rank> window() const {
    auto a = big.accessor();
    a.origin += a.stride[Rank - 1];
    a.n[Rank - 1] -= 1;
    return a;
  }
  /// the window's values back on the host, and whether the column before it is still NaN
  std::pair<ts::View<T, Rank, ts::HostSpace>, bool> read_back(const ts::extents<Rank>& n) const {
    const auto all = ts::create_mirror_copy(big);
    ts::View<T, Rank, ts::HostSpace> v("window", n, 1);
    bool before_untouched = true;
    for_each_point<Rank>(all.extents(), 0, [&](auto... i) {
      ts::array<ts::index_t, Rank> c{{static_cast<ts::index_t>(i)...}};
      const T x = at_point(all, c);
      if (c[Rank - 1] == 0) {
        before_untouched = before_untouched && std::isnan(x);
        return;
      }
      c[Rank - 1] -= 1;
      at_point(v, c) = x;
    });
    return {v, before_untouched};
  }
};
template <class T, int Rank>
shifted_view<T, Rank> shifted_on_device(const ts::View<T, Rank, ts::HostSpace>& v, const char* label) {
  constexpr int X = Rank - 1;
  auto big = v.extents();
  big[X] += 1;
  ts::View<T, Rank, ts::HostSpace> h(label, big, 1);
  for_each_point<Rank>(big, 1, [&](auto... i) { h(i...) = std::numeric_limits<T>::quiet_NaN(); });
  for_each_point<Rank>(v.extents(), 0, [&](auto... i) {
    ts::array<ts::index_t, Rank> c{{static_cast<ts::index_t>(i)...}};
    const T x = v(i...);
    c[X] += 1;
    at_point(h, c) = x;
  });
  return {on_space<T, Rank, ts::CudaSpace>(h, label)};
}

/// residual_max, residual_restrict (every coarsening mode), prolong_correction and the
/// one-block CG against host loops on the same face rules; `shifted`: u, g and the fine
/// level are windows off the pairs' alignment.
template <class T, int Rank>
void check_level_kernels(const ts::extents<Rank>& n, const ts::coarsening_modes<Rank>& modes, std::uint64_t seed,
                         bool shifted = false) {
  CAPTURE(n.to_string());
  CAPTURE(sizeof(T));
  CAPTURE(shifted);
  const double tol = sizeof(T) == 4 ? 1e-5 : 1e-13;
  auto s = test_level<T, Rank>();
  ts::View<T, Rank, ts::HostSpace> u_h("u", n, 1), g_h("g", n, 1);
  fill_random(u_h, seed);
  fill_random(g_h, seed + 1);
  poison_ghosts(u_h, std::numeric_limits<T>::quiet_NaN());
  auto u = on_space<T, Rank, ts::CudaSpace>(u_h, "u_d");
  auto g = on_space<T, Rank, ts::CudaSpace>(g_h, "g_d");
  const auto u_shift = shifted_on_device(u_h, "u_shifted"), g_shift = shifted_on_device(g_h, "g_shifted");
  const ts::view_accessor<const T, Rank> ua = shifted ? u_shift.window() : u.accessor(),
                                         ga = shifted ? g_shift.window() : g.accessor();
  // the residual and its max
  ts::View<T, Rank, ts::HostSpace> r_h("r", n, 1);
  double want = 0;
  for_each_point<Rank>(n, 0, [&](auto... i) {
    const ts::array<ts::index_t, Rank> c{{static_cast<ts::index_t>(i)...}};
    r_h(i...) = g_h(i...) - host_star(u_h, s, c);
    want = std::max(want, std::fabs(double(r_h(i...))));
  });
  const double got_max = ts::cuda::residual_max_device<T, Rank>(ua, ga, s);
  CHECK(want > 0.5);
  CHECK(std::fabs(got_max - want) <= tol * want);
  // residual and restriction in one pass = restriction of the host residual
  ts::extents<Rank> m{};
  for (int d = 0; d < Rank; ++d) m[d] = *ts::coarse_extent(n[d], modes[d]);
  ts::View<T, Rank, ts::HostSpace> c_h("coarse", m, 1), want_c("want_c", m, 1);
  ts::restrict_full_weighting(r_h, want_c, modes);
  for_each_point<Rank>(m, 0, [&](auto... i) { c_h(i...) = std::numeric_limits<T>::quiet_NaN(); });
  auto c = on_space<T, Rank, ts::CudaSpace>(c_h, "c_d");
  ts::cuda::residual_restrict_device<T, Rank>(ua, ga, c.accessor(), s, modes);
  CHECK(max_diff(ts::create_mirror_copy(c), want_c) <= tol * max_abs(want_c));
  CHECK(max_abs(want_c) > 0.1);
  // prolongation from the coarse level with its walls (b = 0) = prolong_add over filled ghosts
  for (int f = 0; f < 2 * Rank; ++f) s.b[f] = 0;
  fill_random(c_h, seed + 2);
  ts::View<T, Rank, ts::HostSpace> cg_h("c_ghosts", c_h.layout());  // ghosts by the rules, highest axis last
  ts::deep_copy(cg_h, c_h);
  for (int d = 0; d < Rank; ++d)
    for_each_point<Rank>(m, 1, [&](auto... i) {
      ts::array<ts::index_t, Rank> p{{static_cast<ts::index_t>(i)...}};
      for (int e = d + 1; e < Rank; ++e)
        if (p[e] < 0 || p[e] >= m[e]) return;  // written when axis e's turn comes
      if (p[d] >= 0 && p[d] < m[d]) return;
      const int f = 2 * d + (p[d] < 0 ? 0 : 1);
      auto q = p;
      q[d] = p[d] < 0 ? 0 : m[d] - 1;
      at_point(cg_h, p) = s.a[f] * at_point(cg_h, q);
    });
  ts::View<T, Rank, ts::HostSpace> fine_want("fine_want", n, 1);
  fill_random(fine_want, seed + 3);
  auto fine = on_space<T, Rank, ts::CudaSpace>(fine_want, "fine_d");
  const auto fine_shift = shifted_on_device(fine_want, "fine_shifted");
  ts::prolong_add(cg_h, fine_want, modes);
  poison_ghosts(c_h, std::numeric_limits<T>::quiet_NaN());
  auto cd = on_space<T, Rank, ts::CudaSpace>(c_h, "c_rules");
  const ts::view_accessor<const T, Rank> cda = cd.accessor();
  ts::cuda::prolong_correction_device<T, Rank>(cda, shifted ? fine_shift.window() : fine.accessor(), s, modes);
  if (shifted) {
    const auto [got, before_untouched] = fine_shift.read_back(n);
    CHECK(max_diff(got, fine_want) <= tol * max_abs(fine_want));
    CHECK(before_untouched);
  } else {
    CHECK(max_diff(ts::create_mirror_copy(fine), fine_want) <= tol * max_abs(fine_want));
  }
}

/// The one-block CG on a small level: its answer satisfies A' u = g to the tolerance asked
/// (checked by the host loop), for a regular and a singular (all-Neumann) operator.
template <class T, int Rank>
void check_coarse_cg_kernel(const ts::extents<Rank>& n, bool singular) {
  CAPTURE(n.to_string());
  CAPTURE(singular);
  auto s = test_level<T, Rank>();
  for (int f = 0; f < 2 * Rank; ++f) s.b[f] = 0;
  if (singular) {
    for (int f = 0; f < 2 * Rank; ++f) s.a[f] = 1;
    s.diag = 0;
    for (int d = 0; d < Rank; ++d) s.diag += 2 * s.w[d];
  }
  ts::View<T, Rank, ts::HostSpace> g_h("g", n, 1), u_h("u", n, 1);
  fill_random(g_h, 5);
  if (singular) {  // a compatible right-hand side
    double mean = 0;
    for_each_point<Rank>(n, 0, [&](auto... i) { mean += g_h(i...); });
    mean /= double(n.size());
    for_each_point<Rank>(n, 0, [&](auto... i) { g_h(i...) -= T(mean); });
  }
  auto g = on_space<T, Rank, ts::CudaSpace>(g_h, "g_d");
  auto u = on_space<T, Rank, ts::CudaSpace>(u_h, "u_d");
  ts::View<T, Rank, ts::CudaSpace> r("r", n, 1), p("p", n, 1), q("q", n, 1);
  const ts::view_accessor<const T, Rank> ga = g.accessor();
  ts::cuda::coarse_cg_device<T, Rank>(u.accessor(), ga, r.accessor(), p.accessor(), q.accessor(), s, 1e-9, 10000,
                                      singular);
  const auto got = ts::create_mirror_copy(u);
  double res = 0, gmax = 0;
  for_each_point<Rank>(n, 0, [&](auto... i) {
    const ts::array<ts::index_t, Rank> c{{static_cast<ts::index_t>(i)...}};
    res = std::max(res, std::fabs(double(g_h(i...) - host_star(got, s, c))));
    gmax = std::max(gmax, std::fabs(double(g_h(i...))));
  });
  CHECK(gmax > 0.5);
  CHECK(res <= 1e-7 * gmax);
}
}  // namespace

TEST_CASE("cuda multigrid: the fused red-black step equals the in-place step, across tiles and chunks") {
  TESSERA_REQUIRE_CUDA_DEVICE();
  for (const int first : {0, 1}) {
    check_red_black_step_kernel<double, 3>({70, 45, 37}, first, 11);
    check_red_black_step_kernel<float, 3>({33, 16, 61}, first, 12);
    check_red_black_step_kernel<double, 3>({1, 3, 2}, first, 13);
    check_red_black_step_kernel<double, 3>({40, 13, 131}, first, 17);
    check_red_black_step_kernel<double, 2>({300, 517}, first, 14);
    check_red_black_step_kernel<float, 2>({65, 255}, first, 15);
    check_red_black_step_kernel<double, 2>({2, 1}, first, 16);
    check_red_black_step_unaligned<double, 3>({35, 14, 121}, first, 18);
    check_red_black_step_unaligned<float, 3>({9, 7, 62}, first, 19);
    check_red_black_step_unaligned<double, 2>({70, 505}, first, 20);
  }
}

TEST_CASE("cuda multigrid: fused residual norm, residual-restriction, prolongation and one-block CG equal host loops") {
  TESSERA_REQUIRE_CUDA_DEVICE();
  using cm = ts::coarsening;
  check_level_kernels<double, 3>({9, 14, 33}, {cm::vertex, cm::cell, cm::vertex}, 31);
  check_level_kernels<double, 3>({8, 7, 130}, {cm::cell, cm::none, cm::cell}, 32);
  check_level_kernels<float, 3>({15, 16, 17}, {cm::vertex, cm::cell, cm::vertex}, 33);
  check_level_kernels<double, 2>({301, 64}, {cm::vertex, cm::cell}, 34);
  check_level_kernels<float, 2>({10, 515}, {cm::cell, cm::vertex}, 35);
  // several tiles and chunks of the marching kernels, and their scalar paths off the alignment
  check_level_kernels<double, 3>({70, 45, 133}, {cm::cell, cm::vertex, cm::vertex}, 36);
  check_level_kernels<float, 3>({41, 24, 70}, {cm::vertex, cm::cell, cm::cell}, 37);
  check_level_kernels<double, 3>({33, 20, 65}, {cm::vertex, cm::cell, cm::vertex}, 38, true);
  check_level_kernels<double, 3>({16, 9, 66}, {cm::cell, cm::vertex, cm::cell}, 39, true);
  check_level_kernels<float, 2>({130, 257}, {cm::cell, cm::vertex}, 40, true);
  check_level_kernels<double, 2>({67, 300}, {cm::vertex, cm::cell}, 41, true);
  check_coarse_cg_kernel<double, 3>({7, 4, 9}, false);
  check_coarse_cg_kernel<double, 3>({8, 8, 8}, true);
  check_coarse_cg_kernel<double, 2>({33, 61}, false);
  check_coarse_cg_kernel<double, 2>({16, 16}, true);
  // NaN in u reaches the norm
  ts::View<double, 3, ts::HostSpace> u_h("u", {5, 6, 7}, 1), g_h("g", {5, 6, 7}, 1);
  fill_random(u_h, 1);
  fill_random(g_h, 2);
  u_h(4, 5, 6) = std::numeric_limits<double>::quiet_NaN();
  auto u = on_space<double, 3, ts::CudaSpace>(u_h, "u_nan");
  auto g = on_space<double, 3, ts::CudaSpace>(g_h, "g_nan");
  const ts::view_accessor<const double, 3> ua = u.accessor(), ga = g.accessor();
  CHECK(std::isnan(ts::cuda::residual_max_device<double, 3>(ua, ga, test_level<double, 3>())));
}

// cuda::automatic has multigrid kernels of its own (found by argument-dependent lookup: a
// renamed customisation point would silently fall back to the point functions), the other
// strategies do not; a solver uses them exactly where they apply.
static_assert(ts::multigrid_solver<ts::cuda::automatic, double, 3, ts::CudaSpace>::policy_has_multigrid_kernels());
static_assert(ts::multigrid_solver<ts::cuda::automatic, float, 2, ts::CudaSpace>::policy_has_multigrid_kernels());
static_assert(!ts::multigrid_solver<ts::cuda::naive<>, double, 3, ts::CudaSpace>::policy_has_multigrid_kernels());
static_assert(!ts::multigrid_solver<ts::cuda::automatic, double, 1, ts::CudaSpace>::policy_has_multigrid_kernels());

TEST_CASE("cuda multigrid: the fused kernels run where they apply: automatic, a constant star, no periodic axis") {
  TESSERA_REQUIRE_CUDA_DEVICE();
  const ts::extents<3> n{15, 16, 17};
  const auto L = ts::fd::laplacian<3, 2>(1.0 / 16);
  const auto walls = ts::boundary_conditions<3>::uniform(ts::boundary::dirichlet(0));
  auto periodic = walls;
  periodic.set(1, ts::boundary::periodic(), ts::boundary::periodic());
  ts::View<double, 3, ts::CudaSpace> k("k", n, 1), zero("zero", n, 1);
  const auto op = ts::poisson_operator<ts::CudaSpace>(L);
  CHECK(ts::multigrid_solver(ts::cuda::automatic{}, op, n, walls).fused_kernels());
  CHECK_FALSE(ts::multigrid_solver(ts::cuda::automatic{}, op, n, periodic).fused_kernels());
  CHECK_FALSE(ts::multigrid_solver(ts::cuda::naive<>{}, op, n, walls).fused_kernels());
  ts::apply(ts::cuda::automatic{}, ts::multigrid_detail::combine_sweep<double>{0, 0, 1}, ts::inputs(zero, zero), k);  // k = 1
  const auto varying = ts::div_k_grad_operator(0.0, -1.0, k, ts::array<double, 3>{0.1, 0.1, 0.1});
  CHECK_FALSE(ts::multigrid_solver(ts::cuda::automatic{}, varying, n, walls).fused_kernels());
}

namespace {
/// One solve from u = 0 on a random right-hand side with `opt`; the answer on the host, the
/// result, and how many times the solver launched its recorded coarse cycle.
template <int Rank>
struct recorded_solve {
  ts::View<double, Rank, ts::HostSpace> u;
  ts::multigrid_result r;
  long long launches = 0;
};
template <int Rank>
recorded_solve<Rank> solve_with(const ts::extents<Rank>& n, const ts::boundary_conditions<Rank>& bc,
                                const ts::multigrid_options& opt, std::uint64_t seed) {
  ts::View<double, Rank, ts::HostSpace> f_h("f", n, 1);
  fill_random(f_h, seed);
  auto f = on_space<double, Rank, ts::CudaSpace>(f_h, "f_d");
  ts::View<double, Rank, ts::CudaSpace> u("u_d", n, 1);
  const double h = 1.0 / double(n[0] + 1);
  ts::multigrid_solver mg(ts::cuda::automatic{}, ts::poisson_operator<ts::CudaSpace>(ts::fd::laplacian<Rank, 2>(h)), n, bc,
                          opt);
  recorded_solve<Rank> out;
  out.r = mg.solve(f, u);
  out.u = ts::create_mirror_copy(u);
  out.launches = mg.recorded_cycle_launches();
  return out;
}
}  // namespace

TEST_CASE("cuda multigrid: a cycle's coarse levels replayed as one graph give the solve without it, bit for bit") {
  TESSERA_REQUIRE_CUDA_DEVICE();
  const auto walls3 = ts::boundary_conditions<3>::uniform(ts::boundary::dirichlet(0.5));
  // (Neumann axes of even extents down to the coarsest level: an axis that stops coarsening
  // leaves a coarsest level too large for one launch, whose CG reduces with atomics, in no
  // fixed order, and nothing is recorded)
  auto mixed3 = ts::boundary_conditions<3>::uniform(ts::boundary::neumann());
  mixed3.set(0, ts::boundary::dirichlet(1.0), ts::boundary::neumann());
  const auto walls2 = ts::boundary_conditions<2>::uniform(ts::boundary::dirichlet(0));
  for (const auto cycle : {ts::mg_cycle::v, ts::mg_cycle::f})
    for (const bool fmg : {false, true}) {
      CAPTURE(ts::to_string(cycle));
      CAPTURE(fmg);
      ts::multigrid_options opt;
      opt.cycle = cycle;
      opt.full_multigrid = fmg;
      ts::multigrid_options plain = opt;
      plain.graph_below_points = 0;
      const ts::extents<3> n = cycle == ts::mg_cycle::v ? ts::extents<3>{63, 40, 57} : ts::extents<3>{63, 32, 64};
      const auto a = solve_with<3>(n, cycle == ts::mg_cycle::v ? walls3 : mixed3, opt, 71);
      const auto b = solve_with<3>(n, cycle == ts::mg_cycle::v ? walls3 : mixed3, plain, 71);
      CHECK(a.r.converged);
      CHECK(a.r.cycles >= 3);
      CHECK(a.launches >= a.r.cycles - 1);  // every cycle but the first (which finds the coarse solve in one launch)
      CHECK(b.launches == 0);
      CHECK(a.r.residuals == b.r.residuals);
      CHECK(max_diff(a.u, b.u) == 0);
      const auto c = solve_with<2>({255, 200}, walls2, opt, 72);
      const auto d = solve_with<2>({255, 200}, walls2, plain, 72);
      CHECK(c.launches >= c.r.cycles - 1);
      CHECK(c.r.residuals == d.r.residuals);
      CHECK(max_diff(c.u, d.u) == 0);
    }
  // where a cycle would leave a level's views swapped (an odd number of steps) or waits
  // (level timing), nothing is recorded, and the solve converges as before
  ts::multigrid_options odd;
  odd.post_smooth = 1;
  const auto e = solve_with<3>({63, 40, 57}, walls3, odd, 73);
  CHECK(e.launches == 0);
  CHECK(e.r.converged);
  ts::multigrid_options timed;
  timed.time_levels = true;
  const auto t = solve_with<3>({63, 40, 57}, walls3, timed, 73);
  CHECK(t.launches == 0);
  CHECK(t.r.converged);
  // a bad option is refused by name
  ts::multigrid_options bad;
  bad.graph_below_points = -1;
  CHECK_THROWS_WITH_AS(solve_with<3>({15, 15, 15}, walls3, bad, 74), doctest::Contains("graph_below_points = -1"),
                       ts::invalid_argument_error);
}
