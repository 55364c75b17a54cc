// Point functions: stencils written as code over several fields. Three physics kernels,
// each a few lines, each run on host::parallel and checked against the Kokkos reference
// running the same function; div(k grad u) is also checked against its exact value.
// On CUDA views the same lambdas run in a .cu file (tessera's CUDA flags turn on
// --extended-lambda); tessera::physics has ready-made versions of these kernels.
#include <cmath>
#include <cstdio>
#include <numbers>
#include <tessera/tessera.hpp>
namespace ts = tessera;
using ts::off;

template <class T, int Rank, class F, class In>
bool agrees_with_kokkos(const char* what, const F& fn, const In& in, const ts::View<T, Rank>& out) {
  ts::View<T, Rank> ref("ref", out.layout());
  ts::apply(ts::host::parallel{}, fn, in, out);
  ts::apply(ts::kokkos::mdrange{}, fn, in, ref);
  const auto c = ts::compare(out, ref);
  std::printf("%-34s max |host - kokkos| = %.2e\n", what, c.max_abs_error);
  return c.nonfinite == 0 && c.max_abs_error <= 1e-12 * (1 + ts::norm_max(ref));
}

int main() {
  const int n = 40;
  const double h = 1.0 / n, pi = std::numbers::pi, inv_h2 = 1 / (h * h);
  bool ok = true;

  // 1. div(k grad u), conductivity averaged onto each face; u and k read 1 point away.
  ts::View<double, 3> u("u", ts::extents{n, n, n}, 1), k("k", u.layout()), out("out", u.layout());
  auto at = [&](int i) { return (i + 0.5) * h; };
  for (int z = -1; z <= n; ++z)  // the exact fields, ghosts included
    for (int y = -1; y <= n; ++y)
      for (int x = -1; x <= n; ++x) {
        u(z, y, x) = std::sin(pi * at(x)) * std::sin(pi * at(y)) * std::sin(pi * at(z));
        k(z, y, x) = 1 + at(x);
      }
  auto div_k_grad = ts::pointwise(ts::reach<1, 1>{},  // u and k
      [=] TESSERA_HD(ts::field<double, 3, 1> u, ts::field<double, 3, 1> k) {
        auto flux = [&](auto o) { return 0.5 * (k(o) + k()) * (u(o) - u()); };
        return inv_h2 * (flux(off<1, 0, 0>) + flux(off<-1, 0, 0>) + flux(off<0, 1, 0>) +
                         flux(off<0, -1, 0>) + flux(off<0, 0, 1>) + flux(off<0, 0, -1>));
      });
  ts::apply(ts::host::parallel{}, div_k_grad, ts::inputs(u, k), out);
  ok = agrees_with_kokkos("div(k grad u)", div_k_grad, ts::inputs(u, k), out) && ok;
  double err = 0, scale = 0;  // exact: k Lap u + dk/dx du/dx
  for (int z = 0; z < n; ++z)
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; ++x) {
        const double sy = std::sin(pi * at(y)) * std::sin(pi * at(z));
        const double exact = -3 * pi * pi * (1 + at(x)) * u(z, y, x) + pi * std::cos(pi * at(x)) * sy;
        err = std::fmax(err, std::fabs(out(z, y, x) - exact)), scale = std::fmax(scale, std::fabs(exact));
      }
  std::printf("%-34s max error %.2e of max %.2f (second order: h^2 = %.1e)\n", "  against the exact value", err,
              scale, h * h);
  ok = ok && err <= 0.01 * scale;

  // 2. one step of the acoustic wave through a velocity model: 8th-order Laplacian of u
  //    (reach 4), the previous time level and c^2 at the point only.
  ts::View<double, 3> u_prev("u_prev", ts::extents{n, n, n}, 0), c2("c2", u_prev.layout()), next("next", u.layout());
  ts::View<double, 3> w("u4", ts::extents{n, n, n}, 4);
  for (int z = -4; z < n + 4; ++z)
    for (int y = -4; y < n + 4; ++y)
      for (int x = -4; x < n + 4; ++x) w(z, y, x) = std::exp(-40 * (std::pow(at(x) - .5, 2) + std::pow(at(y) - .5, 2)));
  for (int z = 0; z < n; ++z)
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; ++x) u_prev(z, y, x) = w(z, y, x), c2(z, y, x) = z < n / 2 ? 1.0 : 4.0;
  const double dt2_h2 = 0.04;
  auto acoustic = ts::pointwise(ts::reach<0, 4, 0>{},  // u_prev, u, c2
      [=] TESSERA_HD(ts::field<double, 3, 0> up, ts::field<double, 3, 4> u, ts::field<double, 3, 0> c2) {
        return 2 * u() - up() + c2() * dt2_h2 * ts::physics::laplacian8<double>(u);
      });
  ok = agrees_with_kokkos("acoustic step (c(x), order 8)", acoustic, ts::inputs(u_prev, w, c2), next) && ok;

  // 3. 2D advection by a velocity field, first-order upwind: the side the flow comes from.
  ts::View<double, 2> q("q", ts::extents{n, n}, 1), vy("vy", ts::extents{n, n}, 0), vx("vx", vy.layout()),
      q_next("q_next", q.layout());
  for (int y = -1; y <= n; ++y)
    for (int x = -1; x <= n; ++x) q(y, x) = std::exp(-30 * (std::pow(at(x) - .3, 2) + std::pow(at(y) - .5, 2)));
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x) vy(y, x) = at(x) - 0.5, vx(y, x) = 0.5 - at(y);  // a rotation
  const double dt_h = 0.4;
  auto upwind = ts::pointwise(ts::reach<1, 0, 0>{},  // q, vy, vx
      [=] TESSERA_HD(ts::field<double, 2, 1> q, ts::field<double, 2, 0> vy, ts::field<double, 2, 0> vx) {
        const double dqx = vx() > 0 ? q() - q(off<0, -1>) : q(off<0, 1>) - q();
        const double dqy = vy() > 0 ? q() - q(off<-1, 0>) : q(off<1, 0>) - q();
        return q() - dt_h * (vx() * dqx + vy() * dqy);
      });
  ok = agrees_with_kokkos("2D upwind advection", upwind, ts::inputs(q, vy, vx), q_next) && ok;

  std::printf("%s\n", ok ? "every point function agrees with Kokkos" : "A POINT FUNCTION DISAGREES");
  return ok ? 0 : 1;
}
