#pragma once
// What vector_streaming's two kernels share (vector_streaming.cuh: the window kernel;
// vector_accumulate.cuh: accumulation for wide 3D stars): 16-byte vector loads and
// streaming stores, and which rows and neighbouring lanes' elements a step of a shape
// reads.
#include <cstdint>
#include <cstring>

#include "tessera/cuda/kernels/common.cuh"

namespace tessera::cuda {
namespace kernels {

namespace vec16 {
/// One 16-byte vector of T.
template <class T>
struct vec {
  static_assert(sizeof(T) <= 16 && 16 % sizeof(T) == 0, "tessera::cuda::vector_streaming: T must divide 16 bytes");
  static constexpr int size = detail::elements_per_16_bytes<T>;
  T e[size];
};
template <class T>
__device__ inline vec<T> load(const T* p) {
  const int4 raw = __ldg(reinterpret_cast<const int4*>(p));
  vec<T> v;
  memcpy(&v, &raw, 16);
  return v;
}
template <class T>
__device__ inline void store_streaming(T* p, const vec<T>& v) {
  int4 raw;
  memcpy(&raw, &v, 16);
  __stcs(reinterpret_cast<int4*>(p), raw);
}
template <class T>
__device__ inline vec<T> zero() {
  vec<T> v;
#pragma unroll
  for (int j = 0; j < vec<T>::size; ++j) v.e[j] = T(0);
  return v;
}
}  // namespace vec16

/// The rows (offset dm along the marching axis, dy along y) a step of shape S reads.
template <class S>
struct vector_rows {
  using vs = detail::vshape<S>;
  static constexpr int M = 3 - S::rank;
  static constexpr bool used(int dm, int dy) {
    for (int k = 0; k < vs::size; ++k)
      if (vs::off(k, M) == dm && (S::rank == 3 ? vs::off(k, 1) : 0) == dy) return true;
    return false;
  }
  /// The lane (offset from this one) whose vector holds element t of a row: t may lie
  /// before (t < 0) or beyond (t >= nv) this lane's vector.
  static constexpr int lane_of(int t, int nv) { return t < 0 ? -((-t + nv - 1) / nv) : t / nv; }
  /// True when a step reads, in row (dm, dy), elements of the vector `off` lanes away.
  static constexpr bool uses_lane(int dm, int dy, int off, int nv) {
    for (int k = 0; k < vs::size; ++k) {
      if (vs::off(k, M) != dm || (S::rank == 3 ? vs::off(k, 1) : 0) != dy) continue;
      for (int j = 0; j < nv; ++j)
        if (lane_of(j + vs::off(k, 2), nv) == off) return true;
    }
    return false;
  }
  /// True when a step reads element e of the vector `off` lanes away in row (dm, dy).
  static constexpr bool uses_elem(int dm, int dy, int off, int e, int nv) {
    for (int k = 0; k < vs::size; ++k) {
      if (vs::off(k, M) != dm || (S::rank == 3 ? vs::off(k, 1) : 0) != dy) continue;
      for (int j = 0; j < nv; ++j)
        if (j + vs::off(k, 2) == off * nv + e) return true;
    }
    return false;
  }
  /// How many elements of that vector a step reads.
  static constexpr int elems_used(int dm, int dy, int off, int nv) {
    int n = 0;
    for (int e = 0; e < nv; ++e) n += uses_elem(dm, dy, off, e, nv) ? 1 : 0;
    return n;
  }
};

/// Which neighbouring lanes' vectors a step loads whole from L1 instead of shuffling
/// (On: a warp with no bounds): those the step reads every element of.
template <class S, int NV, bool On>
struct whole_vectors {
  static constexpr bool loaded(int dm, int dy, int off) {
    return On && off != 0 && vector_rows<S>::elems_used(dm, dy, off, NV) == NV;
  }
};

/// Brings the line holding p into L1 without a register.
__device__ inline void prefetch_l1(const void* p) { asm volatile("prefetch.global.L1 [%0];" ::"l"(p)); }

}  // namespace kernels
}  // namespace tessera::cuda
