// Kokkos' MDRangePolicy as a peer: the stencil loop a Kokkos user writes (a functor over
// the interior, one output a thread, neighbours read through the View), timed on the GPU
// beside tessera-bench in the same run, with its tile tuned: every tile in a list is timed
// and the fastest reported, so the peer gets its best shot, not Kokkos' default alone.
//
//   kokkos-mdrange-peer [--reps N (10)] [--case NAME ...]   (built by ../kokkos.sh)
//
// Method (as tessera-bench's single-sweep section): fields with a ghost layer as deep as
// the shape's radius, pseudo-random values; several input buffers so that the working set
// exceeds four times the L2 (a sweep cannot be served from cache); each repetition times
// one batch of sweeps between fences and divides; the median over repetitions. One sweep
// of the best tile is checked against a host recomputation at 4096 sampled points before
// its number is printed. Copy bandwidth: a device-to-device copy (Kokkos::deep_copy),
// read + write bytes, median, in the same run.
//
// Three variants, each with its tiles: LayoutRight indexed (z, y, x) as C++ arrays are;
// LayoutLeft indexed (x, y, z), whose first index is the contiguous one (Kokkos' CUDA
// MDRange puts index 0 on threadIdx.x, so only it reads a warp's row in one go at any tile);
// and LayoutLeft with the input viewed as RandomAccess (Kokkos' read-only cache hint). The
// fastest is reported, each variant's best time beside it.
//
// Output: CSV on stdout, one line a case:
//   peer,shape,precision,extents,tile,ms_per_sweep,gcell_per_s,fraction_of_copy,copy_gbs,right_ms,left_ms,
//   left_random_access_ms
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <type_traits>
#include <vector>

#include "median.hpp"  // perf/median.hpp, tessera-bench's

namespace {

// ---- shapes: compile-time offset lists (slowest axis first, as tessera's extents) ----

template <int Rank, int Radius, bool Box>
struct shape {
  static constexpr int rank = Rank;
  static constexpr int radius = Radius;
  static constexpr int size = Box ? (Rank == 3 ? (2 * Radius + 1) * (2 * Radius + 1) * (2 * Radius + 1)
                                                : (2 * Radius + 1) * (2 * Radius + 1))
                                  : 1 + 2 * Rank * Radius;
  /// The k-th point's offset along axis a (0 the slowest): computed, not looked up, so that
  /// device code unrolled over k folds it to a constant.
  KOKKOS_INLINE_FUNCTION static constexpr int off(int k, int a) {
    if constexpr (Box) {
      int rest = k;
      for (int b = Rank - 1; b > a; --b) rest /= 2 * Radius + 1;
      return rest % (2 * Radius + 1) - Radius;
    } else {
      if (k == 0) return 0;
      const int j = k - 1, axis = j / (2 * Radius), d = (j % (2 * Radius)) / 2 + 1;
      return axis != a ? 0 : (j % 2 ? d : -d);
    }
  }
  static std::string name() {
    return std::string(Box ? "box<" : "star<") + std::to_string(Rank) + "," + std::to_string(Radius) + ">";
  }
};

/// View index i's axis (0 the slowest): LayoutRight keeps the axes in order; LayoutLeft
/// takes them reversed, so that its first index, the contiguous one, is the fastest axis.
template <class Layout, int Rank>
KOKKOS_INLINE_FUNCTION constexpr int axis_of(int i) {
  return std::is_same_v<Layout, Kokkos::LayoutLeft> ? Rank - 1 - i : i;
}

/// The input's memory traits: none, or RandomAccess (Kokkos' hint for read-only data that
/// threads read at scattered places; on CUDA, loads through the read-only data cache).
template <bool RandomAccess>
using input_traits = Kokkos::MemoryTraits<RandomAccess ? Kokkos::RandomAccess : 0>;

template <class S, class T, class Layout, bool RandomAccess>
struct sweep3d {
  Kokkos::View<const T***, Layout, input_traits<RandomAccess>> in;
  Kokkos::View<T***, Layout> out;
  Kokkos::Array<T, S::size> c;
  KOKKOS_INLINE_FUNCTION void operator()(const int i0, const int i1, const int i2) const {
    T acc = 0;
#pragma unroll
    for (int k = 0; k < S::size; ++k)
      acc += c[k] * in(i0 + S::off(k, axis_of<Layout, 3>(0)), i1 + S::off(k, axis_of<Layout, 3>(1)),
                       i2 + S::off(k, axis_of<Layout, 3>(2)));
    out(i0, i1, i2) = acc;
  }
};

template <class S, class T, class Layout, bool RandomAccess>
struct sweep2d {
  Kokkos::View<const T**, Layout, input_traits<RandomAccess>> in;
  Kokkos::View<T**, Layout> out;
  Kokkos::Array<T, S::size> c;
  KOKKOS_INLINE_FUNCTION void operator()(const int i0, const int i1) const {
    T acc = 0;
#pragma unroll
    for (int k = 0; k < S::size; ++k)
      acc += c[k] * in(i0 + S::off(k, axis_of<Layout, 2>(0)), i1 + S::off(k, axis_of<Layout, 2>(1)));
    out(i0, i1) = acc;
  }
};

// the statistic tessera-bench reports, so both sides of a comparison are summarised alike
using tessera::bench::median;

struct options {
  int reps = 10;
  std::vector<std::string> only;
};

/// Read + write GB/s of a device-to-device copy of 1 GiB, median of reps.
double copy_gbs(int reps) {
  const std::size_t n = (std::size_t(1) << 30) / sizeof(float);
  Kokkos::View<float*> a("copy_a", n), b("copy_b", n);
  // filled by a parallel_for: Kokkos::deep_copy(view, scalar) on this 1 GiB view stopped
  // with cudaErrorIllegalAddress in some runs on an H200 (Kokkos 4.6.99, CUDA 13.0)
  Kokkos::parallel_for(
      "copy_fill", Kokkos::RangePolicy<>(0, n), KOKKOS_LAMBDA(const std::size_t i) { a(i) = 1.0f; });
  Kokkos::fence("filled");
  Kokkos::deep_copy(b, a);
  std::vector<double> t;
  for (int r = 0; r < reps; ++r) {
    Kokkos::fence();
    Kokkos::Timer timer;
    Kokkos::deep_copy(b, a);
    Kokkos::fence();
    t.push_back(timer.seconds());
  }
  return 2.0 * n * sizeof(float) / median(t) * 1e-9;
}

template <class T, class ViewT>
void fill_pattern(ViewT v, unsigned seed) {
  // every cell (ghosts too) a pseudo-random value in [0, 1)
  auto flat = Kokkos::View<T*, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(v.data(), v.span());
  Kokkos::parallel_for(
      "fill", Kokkos::RangePolicy<>(0, v.span()), KOKKOS_LAMBDA(const std::size_t i) {
        unsigned h = static_cast<unsigned>(i) * 2654435761u + seed * 40503u;
        h ^= h >> 13, h *= 0x5bd1e995u, h ^= h >> 15;
        flat(i) = static_cast<T>((h % 100000u) * 1e-5);
      });
}

/// The fastest tile of one layout: its time a sweep, its name, and its largest relative
/// difference from the host at 4096 sampled points (one sweep of that tile).
struct layout_best {
  double ms = 0;
  std::string tile;
  double worst = 0;
};

template <class S, class T, class Layout, bool RandomAccess>
layout_best time_layout(const options& opt, const std::array<int, S::rank>& n, double copy, int l2_bytes) {
  constexpr int R = S::rank, g = S::radius;
  constexpr bool left = std::is_same_v<Layout, Kokkos::LayoutLeft>;
  using view_t = std::conditional_t<R == 3, Kokkos::View<T***, Layout>, Kokkos::View<T**, Layout>>;
  // view index i spans axis axis_of(i), with its ghosts
  auto len = [&](int i) { return static_cast<std::size_t>(n[axis_of<Layout, R>(i)] + 2 * g); };
  auto make = [&](const std::string& name) {
    if constexpr (R == 3) return view_t(name, len(0), len(1), len(2));
    else return view_t(name, len(0), len(1));
  };
  double points = 1;
  for (int a = 0; a < R; ++a) points *= n[a];
  const double bytes = points * sizeof(T);
  const int nbuf = std::max(2, static_cast<int>(std::ceil(4.0 * l2_bytes / bytes)));
  std::vector<view_t> ins;
  for (int b = 0; b < nbuf; ++b) {
    ins.push_back(make("in" + std::to_string(b)));
    fill_pattern<T>(ins.back(), 17u + b);
  }
  view_t out = make("out");
  Kokkos::fence("filled");
  Kokkos::Array<T, S::size> c;
  for (int k = 0; k < S::size; ++k) c[k] = static_cast<T>(0.1 * (k + 1) / S::size);

  constexpr auto dir = left ? Kokkos::Iterate::Left : Kokkos::Iterate::Right;
  using policy_t = Kokkos::MDRangePolicy<Kokkos::Rank<R, dir, dir>>;
  using tile_t = typename policy_t::tile_type;
  // Kokkos' CUDA MDRange puts view index 0 on threadIdx.x whatever the iteration order, so
  // a warp reads along memory only where index 0 is the contiguous one (LayoutLeft) or its
  // tile is 1 there (LayoutRight; threadIdx.z holds at most 64). Tiles listed fastest axis
  // first, then turned into view-index order.
  std::vector<tile_t> tiles;
  tiles.push_back(tile_t{});  // Kokkos' default tile
  auto add = [&](std::array<int, R> fastest_first) {
    tile_t t{};
    for (int i = 0; i < R; ++i) t[i] = fastest_first[left ? i : R - 1 - i];
    tiles.push_back(t);
  };
  if constexpr (R == 3) {
    for (auto t : std::vector<std::array<int, 3>>{{32, 4, 1}, {32, 8, 1}, {32, 16, 1}, {32, 4, 2}, {32, 8, 2}, {32, 4, 4},
                                                   {64, 2, 1}, {64, 4, 1}, {64, 8, 1}, {128, 1, 1}, {128, 2, 1}, {256, 1, 1}})
      if (left || t[0] <= 64) add(t);
  } else {
    for (auto t : std::vector<std::array<int, 2>>{{32, 2}, {32, 4}, {32, 8}, {32, 16}, {64, 2}, {64, 4}, {64, 8},
                                                   {128, 1}, {128, 2}, {256, 1}})
      add(t);
  }
  auto policy_for = [&](const tile_t& t) {
    typename policy_t::point_type lo{}, hi{};
    for (int i = 0; i < R; ++i) lo[i] = g, hi[i] = n[axis_of<Layout, R>(i)] + g;
    bool deflt = true;
    for (int i = 0; i < R; ++i) deflt = deflt && t[i] == 0;
    return deflt ? policy_t(lo, hi) : policy_t(lo, hi, t);
  };
  auto sweep = [&](const policy_t& p, const view_t& in) {
    if constexpr (R == 3) Kokkos::parallel_for("mdrange_sweep", p, sweep3d<S, T, Layout, RandomAccess>{in, out, c});
    else Kokkos::parallel_for("mdrange_sweep", p, sweep2d<S, T, Layout, RandomAccess>{in, out, c});
  };
  // a batch long enough that a fence's cost (~5-10 us) is under 1% of it
  const int batch = std::max(1, static_cast<int>(std::ceil(2e-3 / (2.0 * bytes / (copy * 1e9)))));
  layout_best best;
  int best_i = -1;
  for (std::size_t i = 0; i < tiles.size(); ++i) {
    const auto p = policy_for(tiles[i]);
    sweep(p, ins[0]);  // warm-up
    Kokkos::fence();
    std::vector<double> t;
    for (int r = 0; r < opt.reps; ++r) {
      Kokkos::fence();
      Kokkos::Timer timer;
      for (int b = 0; b < batch; ++b) sweep(p, ins[(r * batch + b) % nbuf]);
      Kokkos::fence();
      t.push_back(timer.seconds() * 1e3 / batch);
    }
    const double ms = median(t);
    if (best_i < 0 || ms < best.ms) {
      best_i = static_cast<int>(i), best.ms = ms;
      best.tile = std::string(left ? "left" : "right") + (RandomAccess ? "+random-access:" : ":");
      for (int d = 0; d < R; ++d) best.tile += (d ? "x" : "") + std::to_string(p.m_tile[d]);
      if (i == 0) best.tile += "(default)";
    }
  }
  // the reported tile's answer: one sweep, 4096 sampled points against the host
  sweep(policy_for(tiles[best_i]), ins[0]);
  Kokkos::fence();
  auto hin = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, ins[0]);
  auto hout = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, out);
  unsigned s = 12345u;
  for (int q = 0; q < 4096; ++q) {
    int at[3] = {0, 0, 0};  // view indices
    for (int i = 0; i < R; ++i)
      s = s * 1664525u + 1013904223u, at[i] = g + static_cast<int>((s >> 8) % n[axis_of<Layout, R>(i)]);
    double ref = 0, mag = 0;
    for (int k = 0; k < S::size; ++k) {
      int o[3] = {0, 0, 0};
      for (int i = 0; i < R; ++i) o[i] = at[i] + S::off(k, axis_of<Layout, R>(i));
      double v;
      if constexpr (R == 3) v = hin(o[0], o[1], o[2]);
      else v = hin(o[0], o[1]);
      ref += double(c[k]) * v, mag += std::abs(double(c[k]) * v);
    }
    double got;
    if constexpr (R == 3) got = hout(at[0], at[1], at[2]);
    else got = hout(at[0], at[1]);
    best.worst = std::max(best.worst, std::abs(got - ref) / std::max(mag, 1e-30));
  }
  return best;
}

template <class S, class T>
void run_case(const options& opt, const std::array<int, S::rank>& n, double copy, int l2_bytes) {
  constexpr int R = S::rank;
  std::string ext;
  for (int a = 0; a < R; ++a) ext += (a ? "x" : "") + std::to_string(n[a]);
  const std::string prec = sizeof(T) == 4 ? "float" : "double";
  const std::string label = S::name() + " " + prec + " " + ext;
  if (!opt.only.empty() && std::none_of(opt.only.begin(), opt.only.end(),
                                        [&](const std::string& s) { return label.find(s) != std::string::npos; }))
    return;
  const double tol = sizeof(T) == 4 ? 1e-5 : 1e-12;
  const layout_best right = time_layout<S, T, Kokkos::LayoutRight, false>(opt, n, copy, l2_bytes);
  const layout_best left = time_layout<S, T, Kokkos::LayoutLeft, false>(opt, n, copy, l2_bytes);
  const layout_best left_ra = time_layout<S, T, Kokkos::LayoutLeft, true>(opt, n, copy, l2_bytes);
  for (const auto* b : {&right, &left, &left_ra})
    if (!(b->worst <= tol)) {
      std::fprintf(stderr, "kokkos-mdrange-peer: %s: tile %s differs from the host by %.3g (tolerance %.1g)\n",
                   label.c_str(), b->tile.c_str(), b->worst, tol);
      std::exit(1);
    }
  double points = 1;
  for (int a = 0; a < R; ++a) points *= n[a];
  const layout_best* best_of = &right;
  for (const auto* b : {&left, &left_ra})
    if (b->ms < best_of->ms) best_of = b;
  const layout_best& best = *best_of;
  const double gcells = points / (best.ms * 1e-3) * 1e-9;
  const double frac = 2.0 * points * sizeof(T) / (best.ms * 1e-3) * 1e-9 / copy;
  std::printf("kokkos-mdrange,%s,%s,%s,%s,%.5f,%.2f,%.3f,%.0f,%.5f,%.5f,%.5f\n", S::name().c_str(), prec.c_str(),
              ext.c_str(), best.tile.c_str(), best.ms, gcells, frac, copy, right.ms, left.ms, left_ra.ms);
}

}  // namespace

int main(int argc, char** argv) {
  options opt;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--reps" && i + 1 < argc) {
      char* end = nullptr;
      const long v = std::strtol(argv[++i], &end, 10);
      if (!end || *end || v < 1 || v > 1000) {
        std::fprintf(stderr, "kokkos-mdrange-peer: --reps takes 1 to 1000, not '%s'\n", argv[i]);
        return 2;
      }
      opt.reps = static_cast<int>(v);
    } else if (a == "--case" && i + 1 < argc) {
      opt.only.emplace_back(argv[++i]);
    } else {
      std::fprintf(stderr,
                   "usage: kokkos-mdrange-peer [--reps N (10)] [--case TEXT ...]\n"
                   "  TEXT picks the cases whose 'shape precision extents' contain it, e.g. 'star<3,1> float'\n");
      return a == "--help" ? 0 : 2;
    }
  }
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // a line a case, kept if a later case aborts
  Kokkos::ScopeGuard guard(argc, argv);
  int l2 = 50 << 20;
#if defined(KOKKOS_ENABLE_CUDA)
  cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0);
#endif
  const double copy = copy_gbs(opt.reps);
  std::printf("peer,shape,precision,extents,tile,ms_per_sweep,gcell_per_s,fraction_of_copy,copy_gbs,right_ms,left_ms,left_random_access_ms\n");
  const std::array<int, 3> n512{512, 512, 512}, n256{256, 256, 256};
  const std::array<int, 2> n8k{8192, 8192};
  run_case<shape<3, 1, false>, float>(opt, n512, copy, l2);
  run_case<shape<3, 1, false>, double>(opt, n512, copy, l2);
  run_case<shape<3, 1, false>, float>(opt, n256, copy, l2);
  run_case<shape<3, 2, false>, float>(opt, n512, copy, l2);
  run_case<shape<3, 4, false>, float>(opt, n512, copy, l2);
  run_case<shape<3, 1, true>, float>(opt, n512, copy, l2);
  run_case<shape<3, 1, true>, double>(opt, n512, copy, l2);
  run_case<shape<3, 2, true>, float>(opt, n256, copy, l2);
  run_case<shape<3, 2, true>, double>(opt, n256, copy, l2);
  run_case<shape<2, 1, false>, float>(opt, n8k, copy, l2);
  run_case<shape<2, 1, false>, double>(opt, n8k, copy, l2);
  run_case<shape<2, 1, true>, float>(opt, n8k, copy, l2);
  return 0;
}
