#pragma once
// host::serial: the reference sweep. Deliberately the most literal reading of the
// definition out(p) = sum_k c_k · in(p + offset_k), with a run-time loop over points.
#include "tessera/core/stencil.hpp"
#include "tessera/core/view.hpp"
#include "tessera/host/policy.hpp"
#include "tessera/host/detail/sweep_instances.hpp"

namespace tessera::host {

template <class S, class T, int Rank, class Space>
void sweep(const serial&, const stencil<S, T>& st, const View<T, Rank, Space>& in,
           const View<T, Rank, Space>& out) {
  constexpr int npts = stencil<S, T>::size;
  const view_accessor<const T, Rank> a = in.accessor();
  const view_accessor<T, Rank> b = out.accessor();
  const auto& n = in.extents();
  if constexpr (Rank == 1) {
    for (index_t x = 0; x < n[0]; ++x) {
      T s = 0;
      for (int k = 0; k < npts; ++k) s += st.coeffs[k] * a(x + S::points[k][0]);
      b(x) = s;
    }
  } else if constexpr (Rank == 2) {
    for (index_t y = 0; y < n[0]; ++y)
      for (index_t x = 0; x < n[1]; ++x) {
        T s = 0;
        for (int k = 0; k < npts; ++k)
          s += st.coeffs[k] * a(y + S::points[k][0], x + S::points[k][1]);
        b(y, x) = s;
      }
  } else {
    for (index_t z = 0; z < n[0]; ++z)
      for (index_t y = 0; y < n[1]; ++y)
        for (index_t x = 0; x < n[2]; ++x) {
          T s = 0;
          for (int k = 0; k < npts; ++k)
            s += st.coeffs[k] *
                 a(z + S::points[k][0], y + S::points[k][1], x + S::points[k][2]);
          b(z, y, x) = s;
        }
  }
}

}  // namespace tessera::host

// The serial sweeps of the built-in shapes are compiled once into tessera_host
// (sweep_instances.hpp says how).
#if defined(TESSERA_HOST_PRECOMPILED)
#define TESSERA_HOST_EXTERN_SERIAL(T, ...) TESSERA_HOST_SWEEP_INSTANCE(extern, serial, T, __VA_ARGS__)
TESSERA_FOR_EACH_BUILTIN_SHAPE(TESSERA_HOST_EXTERN_SERIAL, float)
TESSERA_FOR_EACH_BUILTIN_SHAPE(TESSERA_HOST_EXTERN_SERIAL, double)
#undef TESSERA_HOST_EXTERN_SERIAL
#endif
