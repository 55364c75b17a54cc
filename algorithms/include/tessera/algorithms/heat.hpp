#pragma once
// The heat (diffusion) equation u_t = D * Laplacian(u), explicit Euler:
//   u <- u + dt * D * Lap_h(u)  — one stencil, fd::laplacian<Rank, Order> scaled, plus 1
// at the centre. Explicit Euler is stable only while dt * D * rho <= 2, rho being the
// spectral radius of Lap_h (sum over the axes of max_theta |symbol(theta)| / h_d^2,
// 4 / h^2 per axis at order 2). heat_step refuses a larger dt and names the limit.
#include <cmath>
#include <numbers>
#include <string>

#include "tessera/core/errors.hpp"
#include "tessera/core/fd.hpp"
#include "tessera/core/detail/format.hpp"

namespace tessera {

/// Spectral radius of the order-`Order` central second difference with spacing 1.
template <int Order>
double second_difference_spectral_radius() {
  const auto w = fd::central_weights(2, Order);  // w[k] for offsets -r..r
  const int r = static_cast<int>(w.size()) / 2;
  double rho = 0;
  for (int s = 0; s <= 1024; ++s) {
    const double theta = std::numbers::pi * s / 1024;
    double sym = 0;
    for (int k = -r; k <= r; ++k) sym += w[k + r] * std::cos(k * theta);
    rho = std::fmax(rho, std::fabs(sym));
  }
  return rho;
}

/// The largest stable explicit-Euler time step for diffusivity D on spacings h.
template <int Rank, int Order, class T>
double heat_stability_limit(double D, const array<T, Rank>& h) {
  double rho = 0;
  for (int d = 0; d < Rank; ++d) rho += second_difference_spectral_radius<Order>() / (double(h[d]) * h[d]);
  return 2.0 / (D * rho);
}

/// One explicit-Euler heat step as a stencil; throws invalid_argument_error when dt is
/// above the stability limit (the message gives the limit).
template <int Rank, int Order, class T>
stencil<star<Rank, Order / 2>, T> heat_step(double D, double dt, const array<T, Rank>& h) {
  if (!(D > 0) || !(dt > 0))
    throw invalid_argument_error("tessera::heat_step: diffusivity D = " + detail::sci(D) + " and time step dt = " +
                                 detail::sci(dt) + " must both be positive");
  const double limit = heat_stability_limit<Rank, Order>(D, h);
  if (dt > limit)
    throw invalid_argument_error("tessera::heat_step: dt = " + detail::sci(dt) +
                                 " is above the explicit-Euler stability limit dt <= " + detail::sci(limit) +
                                 " (D = " + detail::sci(D) + ", h = " + detail::sci(double(h[0])) +
                                 ", order " + std::to_string(Order) + "); take dt <= the limit or more, smaller steps");
  auto st = fd::laplacian<Rank, Order>(h);
  for (auto& c : st.coeffs) c = static_cast<T>(c * D * dt);
  st.coeffs[0] += T(1);  // star order: the centre first
  return st;
}

}  // namespace tessera
