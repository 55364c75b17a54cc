// Probe (not built by CMake) behind tessera::kokkos staging 1D grids as one row of a
// rank-2 view: on an H100 with Kokkos develop (4.6.99) built for CUDA 13, a kernel's
// stores through a rank-1 Kokkos::View never arrive (RangePolicy or MDRangePolicy, functor
// or lambda, constrained operator() or not: all read back 0 by cudaMemcpy and by
// deep_copy), while deep_copy into rank-1 views and kernel writes to rank-2 views of one
// row work. Build and run against a CUDA Kokkos:
//   nvcc_wrapper -std=c++20 -O2 --extended-lambda -I<kokkos>/include kokkos_rank1_probe.cpp \
//       -L<kokkos>/lib -lkokkoscore -lcuda -ldl -o probe && ./probe
#include <Kokkos_Core.hpp>
#include <cmath>
#include <type_traits>
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

struct as_2d {  // rank 1 as a 2D range with one row
  Kokkos::View<const double*> in;
  Kokkos::View<double*> out;
  int off[3];
  double c[3];
  KOKKOS_INLINE_FUNCTION void operator()(const int, const int x) const {
    double s = 0;
    for (int k = 0; k < 3; ++k) s += c[k] * in(2 + x + off[k]);
    out(2 + x) = s;
  }
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
  if constexpr (std::is_same_v<F, as_2d>)
    Kokkos::parallel_for("probe", Kokkos::MDRangePolicy<Kokkos::Rank<2>>({0, 0}, {1, n}), f);
  else
    Kokkos::parallel_for("probe", Kokkos::RangePolicy<>(0, n), f);
  Kokkos::fence();
  const cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) std::printf("  CUDA error after the sweep: %s\n", cudaGetErrorString(e));
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
  std::printf("%-12s n=%5d max error %.3e (first wrong point %d, out there %g) on %s\n", what, n, err, first,
              first >= 0 ? o(2 + first) : 0.0, Kokkos::DefaultExecutionSpace::name());
  return err;
}

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IONBF, 0);
  Kokkos::initialize(argc, argv);
  {
    {  // which piece loses the data: a kernel's write to a rank-1 view, or its deep_copy?
      Kokkos::View<int*> v("v", 4);
      Kokkos::parallel_for("one", Kokkos::RangePolicy<>(0, 4), KOKKOS_LAMBDA(int i) { v(i) = 42 + i; });
      Kokkos::fence();
      int raw[4] = {0, 0, 0, 0};
      cudaMemcpy(raw, v.data(), sizeof raw, cudaMemcpyDeviceToHost);
      std::printf("rank-1 view, kernel write, read by cudaMemcpy: %d %d (want 42 43)\n", raw[0], raw[1]);
      auto hv = Kokkos::create_mirror_view(v);
      Kokkos::deep_copy(hv, v);
      std::printf("rank-1 view, kernel write, read by deep_copy: %d %d\n", hv(0), hv(1));
      Kokkos::View<int*, Kokkos::HostSpace> src("src", 4);
      for (int i = 0; i < 4; ++i) src(i) = 7 + i;
      Kokkos::deep_copy(v, src);
      cudaMemcpy(raw, v.data(), sizeof raw, cudaMemcpyDeviceToHost);
      std::printf("rank-1 view, deep_copy host->device, read by cudaMemcpy: %d %d (want 7 8)\n", raw[0], raw[1]);
      Kokkos::View<int**, Kokkos::LayoutRight> w("w", 1, 4);
      Kokkos::parallel_for("two", Kokkos::MDRangePolicy<Kokkos::Rank<2>>({0, 0}, {1, 4}),
                           KOKKOS_LAMBDA(int, int i) { w(0, i) = 42 + i; });
      Kokkos::fence();
      auto hw = Kokkos::create_mirror_view(w);
      Kokkos::deep_copy(hw, w);
      std::printf("rank-2 view 1x4, kernel write, read by deep_copy: %d %d (want 42 43)\n", hw(0, 0), hw(0, 1));
      Kokkos::View<int**, Kokkos::LayoutRight, Kokkos::HostSpace> src2("src2", 1, 4);
      for (int i = 0; i < 4; ++i) src2(0, i) = 7 + i;
      Kokkos::deep_copy(w, src2);
      Kokkos::deep_copy(hw, w);
      std::printf("rank-2 view 1x4, deep_copy both ways: %d %d (want 7 8)\n", hw(0, 0), hw(0, 1));
    }
    {  // is a device write visible at all? one element through a RangePolicy of 1
      Kokkos::View<int*> v("v", 1);
      Kokkos::parallel_for("one", Kokkos::RangePolicy<>(0, 1), KOKKOS_LAMBDA(int i) { v(i) = 42; });
      Kokkos::fence();
      auto hv = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, v);
      std::printf("lambda RangePolicy wrote %d (want 42)\n", hv(0));
    }
    for (int n : {10, 101, 4096}) {
      run<constrained<1>>("constrained", n);
      run<plain>("plain", n);
      run<as_2d>("mdrange 1xn", n);
    }
  }
  Kokkos::finalize();
}
