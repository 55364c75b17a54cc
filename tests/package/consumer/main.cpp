#include <cmath>
#include <cstdio>
#include <tessera/tessera.hpp>

int main() {
  namespace ts = tessera;
  ts::View<double, 3> u("u", ts::extents{9, 10, 11}, 1), v("v", u.layout());
  for (int z = -1; z <= 9; ++z)
    for (int y = -1; y <= 10; ++y)
      for (int x = -1; x <= 11; ++x) u(z, y, x) = 0.01 * z * z - 0.02 * y + 0.5 * x * y;
  auto lap = ts::fd::laplacian<3, 2>(1.0);
  const auto r = ts::validate(ts::host::parallel{}, lap, u);
  ts::apply(ts::host::serial{}, lap, u, v);
  // the Laplacian of 0.01 z^2 - 0.02 y + 0.5 x y is exactly 0.02
  const bool exact = std::abs(v(4, 5, 6) - 0.02) < 1e-12;
  if (!r.passed || !exact) {
    std::printf("consumer: FAILED (rel error %g, v = %g)\n", r.result.max_rel_error, v(4, 5, 6));
    return 1;
  }
  std::printf("consumer: 7-point sweep matches the Kokkos reference (Kokkos %d on %s, rel error %g)\n",
              KOKKOS_VERSION, ts::kokkos::execution_space_name().c_str(), r.result.max_rel_error);
}
