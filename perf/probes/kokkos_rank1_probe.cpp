// Probe (not built by CMake): does a rank-1 Kokkos RangePolicy sweep whose functor has
// three operator() overloads, each constrained by a trailing requires-clause on the rank
// (the shape of tessera::kokkos' sweep_functor before the fix), compute the same as one
// functor per rank? Run against a CUDA Kokkos:
//   nvcc_wrapper -std=c++20 -O2 -I<kokkos>/include kokkos_rank1_probe.cpp -L<kokkos>/lib -lkokkoscore -ldl -o probe
#include <Kokkos_Core.hpp>
#include <cmath>
#include <cstdio>

template <int Rank>
struct constrained {  // the old form
  Kokkos::View<const double*> in;
  Kokkos::View<double*> out;
  int off[3];
  double c[3];
  KOKKOS_INLINE_FUNCTION void operator()(const int x) const
    requires(Rank == 1)
  {
    double s = 0;
    for (int k = 0; k < 3; ++k) s += c[k] * in(2 + x + off[k]);
    out(2 + x) = s;
  }
  KOKKOS_INLINE_FUNCTION void operator()(const int, const int) const
    requires(Rank == 2)
  {}
};

struct plain {  // one operator, no constraint
  Kokkos::View<const double*> in;
  Kokkos::View<double*> out;
  int off[3];
  double c[3];
  KOKKOS_INLINE_FUNCTION void operator()(const int x) const {
    double s = 0;
    for (int k = 0; k < 3; ++k) s += c[k] * in(2 + x + off[k]);
    out(2 + x) = s;
  }
};

template <class F>
double run(const char* what, int n) {
  Kokkos::View<double*> in("in", n + 4), out("out", n + 4);
  auto h = Kokkos::create_mirror_view(in);
  for (int i = 0; i < n + 4; ++i) h(i) = std::sin(0.37 * i) + 0.1 * i;
  Kokkos::deep_copy(in, h);
  F f{in, out, {-2, -1, 0}, {1.0, -2.0, 0.5}};
  Kokkos::parallel_for("probe", Kokkos::RangePolicy<>(0, n), f);
  Kokkos::fence();
  auto o = Kokkos::create_mirror_view(out);
  Kokkos::deep_copy(o, out);
  double err = 0;
  int first = -1;
  for (int x = 0; x < n; ++x) {
    const double want = 1.0 * h(2 + x - 2) - 2.0 * h(2 + x - 1) + 0.5 * h(2 + x);
    const double e = std::fabs(o(2 + x) - want);
    if (e > 1e-12 && first < 0) first = x;
    err = std::fmax(err, e);
  }
  std::printf("%-12s n=%5d max error %.3e (first wrong point %d) on %s\n", what, n, err, first,
              Kokkos::DefaultExecutionSpace::name());
  return err;
}

int main(int argc, char** argv) {
  Kokkos::initialize(argc, argv);
  {
    for (int n : {10, 101, 4096}) {
      run<constrained<1>>("constrained", n);
      run<plain>("plain", n);
    }
  }
  Kokkos::finalize();
}
