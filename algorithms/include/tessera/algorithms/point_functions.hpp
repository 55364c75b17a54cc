#pragma once
// Point functions for common physics, ready to apply (core/point_function.hpp says how
// they are read): each is a small value type whose operator() computes one output point.
// They double as examples of writing one's own; each is noexcept, which lets the host loops
// vectorise it under `omp simd` (a function that may throw runs in a plain loop).
//
//   acoustic_step         u_next = 2u - u_prev + c^2 (dt/h)^2 lap8(u)     fields u_prev, u, c2
//   damped_acoustic_step  the same with a sponge rate s = sigma dt / 2    fields u_prev, u, c2, s
//   div_k_grad            div(k grad u) / h^2 with face-averaged k        fields u, k
//   upwind_advection      q - dt/h (v . grad) q, first-order upwind, 2D   fields q, vy, vx
#include <concepts>

#include "tessera/core/config.hpp"
#include "tessera/core/point_function.hpp"

namespace tessera::physics {

/// The 3D 8th-order Laplacian times h^2 (25 points: the centre and 4 a side on each axis).
template <class T, class U>
TESSERA_HD T laplacian8(const U& u) {
  // second-derivative weights of order 8: w0 for the centre (per axis), wk at distance k
  constexpr T w0 = T(-205) / T(72), w1 = T(8) / T(5), w2 = T(-1) / T(5), w3 = T(8) / T(315), w4 = T(-1) / T(560);
  auto ring = [&](auto a, auto b, auto c, auto d, auto e, auto f) { return u(a) + u(b) + u(c) + u(d) + u(e) + u(f); };
  return T(3) * w0 * u() +
         w1 * ring(off<1, 0, 0>, off<-1, 0, 0>, off<0, 1, 0>, off<0, -1, 0>, off<0, 0, 1>, off<0, 0, -1>) +
         w2 * ring(off<2, 0, 0>, off<-2, 0, 0>, off<0, 2, 0>, off<0, -2, 0>, off<0, 0, 2>, off<0, 0, -2>) +
         w3 * ring(off<3, 0, 0>, off<-3, 0, 0>, off<0, 3, 0>, off<0, -3, 0>, off<0, 0, 3>, off<0, 0, -3>) +
         w4 * ring(off<4, 0, 0>, off<-4, 0, 0>, off<0, 4, 0>, off<0, -4, 0>, off<0, 0, 4>, off<0, 0, -4>);
}

/// One leapfrog step of the acoustic wave equation u_tt = c^2 lap u in 3D, 8th order in
/// space: u_next = 2u - u_prev + c2 (dt/h)^2 lap8(u). dt2_h2 = (dt / h)^2; the field c2
/// holds c^2 per point. Stable for max(c) dt / h <= about 0.50 (8th-order CFL in 3D).
template <std::floating_point T>
struct acoustic_step {
  using reach_type = reach<0, 4, 0>;
  T dt2_h2 = 0;
  template <class P, class U, class C>
  TESSERA_HD T operator()(const P& u_prev, const U& u, const C& c2) const noexcept {
    return T(2) * u() - u_prev() + c2() * dt2_h2 * laplacian8<T>(u);
  }
};

/// acoustic_step with a damping layer: u_tt + sigma u_t = c^2 lap u, u_t centred, so
/// u_next = (2u - (1 - s) u_prev + c2 (dt/h)^2 lap8(u)) / (1 + s) with s = sigma dt / 2
/// per point (0 outside the sponge).
template <std::floating_point T>
struct damped_acoustic_step {
  using reach_type = reach<0, 4, 0, 0>;
  T dt2_h2 = 0;
  template <class P, class U, class C, class S>
  TESSERA_HD T operator()(const P& u_prev, const U& u, const C& c2, const S& s) const noexcept {
    return (T(2) * u() - (T(1) - s()) * u_prev() + c2() * dt2_h2 * laplacian8<T>(u)) / (T(1) + s());
  }
};

/// div(k grad u) in 3D, second order, conductivity averaged onto each face arithmetically:
/// sum over the 6 faces of (k_nb + k) / 2 * (u_nb - u) / h^2. inv_h2 = 1 / h^2.
template <std::floating_point T>
struct div_k_grad {
  using reach_type = reach<1, 1>;
  T inv_h2 = 1;
  template <class U, class K>
  TESSERA_HD T operator()(const U& u, const K& k) const noexcept {
    auto flux = [&](auto o) { return (k(o) + k()) * (u(o) - u()); };
    return T(0.5) * inv_h2 *
           (flux(off<1, 0, 0>) + flux(off<-1, 0, 0>) + flux(off<0, 1, 0>) + flux(off<0, -1, 0>) +
            flux(off<0, 0, 1>) + flux(off<0, 0, -1>));
  }
};

/// One explicit step of 2D advection q_t + v . grad q = 0, first-order upwind: along each
/// axis the difference is taken on the side the velocity comes from. dt_h = dt / h;
/// fields q (reach 1), vy and vx (velocity components at the point). Stable for
/// (|vx| + |vy|) dt / h <= 1.
template <std::floating_point T>
struct upwind_advection {
  using reach_type = reach<1, 0, 0>;
  T dt_h = 0;
  template <class Q, class VY, class VX>
  TESSERA_HD T operator()(const Q& q, const VY& vy, const VX& vx) const noexcept {
    const T dqx = vx() > T(0) ? q() - q(off<0, -1>) : q(off<0, 1>) - q();
    const T dqy = vy() > T(0) ? q() - q(off<-1, 0>) : q(off<1, 0>) - q();
    return q() - dt_h * (vx() * dqx + vy() * dqy);
  }
};

}  // namespace tessera::physics
