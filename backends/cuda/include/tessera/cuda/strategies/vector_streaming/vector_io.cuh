#pragma once
// What vector_streaming's two kernels share (window.cuh; accumulate.cuh for wide 3D
// stars): 16-byte vector loads and streaming stores, and which rows and neighbouring
// lanes' elements a step of a shape reads. nvcc only.
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
  static constexpr int march = 3 - S::rank;
  static constexpr bool used(int dm, int dy) {
    for (int k = 0; k < vs::size; ++k)
      if (vs::off(k, march) == dm && (S::rank == 3 ? vs::off(k, 1) : 0) == dy) return true;
    return false;
  }
  /// The lane (offset from this one) whose vector holds element t of a row: t may lie
  /// before (t < 0) or beyond (t >= nv) this lane's vector.
  static constexpr int lane_of(int t, int nv) { return t < 0 ? -((-t + nv - 1) / nv) : t / nv; }
  /// True when a step reads, in row (dm, dy), elements of the vector `off` lanes away.
  static constexpr bool uses_lane(int dm, int dy, int off, int nv) {
    for (int k = 0; k < vs::size; ++k) {
      if (vs::off(k, march) != dm || (S::rank == 3 ? vs::off(k, 1) : 0) != dy) continue;
      for (int j = 0; j < nv; ++j)
        if (lane_of(j + vs::off(k, 2), nv) == off) return true;
    }
    return false;
  }
  /// True when a step reads element e of the vector `off` lanes away in row (dm, dy).
  static constexpr bool uses_elem(int dm, int dy, int off, int e, int nv) {
    for (int k = 0; k < vs::size; ++k) {
      if (vs::off(k, march) != dm || (S::rank == 3 ? vs::off(k, 1) : 0) != dy) continue;
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

/// The elements of other lanes' vectors that a step reads in row (dm, dy) of shape S, for
/// lane `xl` of a row segment of RowLanes lanes: beyond[c][e] is element e of the vector
/// c + lane_lo lanes away. Each element is fetched once, not once per use (the 25-point
/// reads the 4 floats beside a vector 10 times over): by shuffle within the segment
/// (shuffle), or by the segment's edge lanes loading what lies beyond it; with Whole (a
/// segment whose lanes need no bounds) a vector the step reads whole is loaded by every
/// lane from L1 instead (loaded_whole; the row is the warp's own). Each kernel writes its
/// loads itself, all of a step's before its shuffles: edge loads issued under a branch
/// after the shuffles are waited for one by one, and a load routine shared by the kernels
/// makes the compiler keep the row's address across a box's rows (more registers).
template <class S, class T, int RowLanes>
struct row_neighbours {
  using rows_of = vector_rows<S>;
  using vs = detail::vshape<S>;
  using vec_t = vec16::vec<T>;
  static constexpr int vec_elems = vec_t::size;
  static constexpr int lane_lo = rows_of::lane_of(vs::lo(2), vec_elems),
                       lane_hi = rows_of::lane_of(vec_elems - 1 + vs::hi(2), vec_elems);
  static constexpr int lanes_away =
      lane_hi - lane_lo + 1;  // lanes away: lane_lo .. lane_hi (one either way unless x reaches past a vector)

  template <bool Whole>
  static constexpr bool loaded_whole(int dm, int dy, int off) {
    return Whole && off != 0 && rows_of::elems_used(dm, dy, off, vec_elems) == vec_elems;
  }

  /// The shuffles: the elements within the segment from the lanes that hold them.
  template <int dm, int dy, bool Whole>
  __device__ __forceinline__ static void shuffle(T (&beyond)[lanes_away][vec_elems], const vec_t& row, int xl) {
    tessera::detail::static_for<lanes_away>([&](auto c) {
      tessera::detail::static_for<vec_elems>([&](auto ee) {
        constexpr int lane_i = decltype(c)::value, elem_i = decltype(ee)::value, off = lane_i + lane_lo;
        if constexpr (off != 0 && !loaded_whole<Whole>(dm, dy, off) &&
                      rows_of::uses_elem(dm, dy, off, elem_i, vec_elems)) {
          const T shuffled = __shfl_sync(0xffffffffu, row.e[elem_i], xl + off, RowLanes);
          if (xl + off >= 0 && xl + off <= RowLanes - 1) beyond[lane_i][elem_i] = shuffled;
        }
      });
    });
  }

  /// Element t of the row counted from this lane's first (t < 0 or t >= vec_elems: another
  /// lane's, from beyond).
  template <int t>
  __device__ __forceinline__ static T element(const vec_t& row, const T (&beyond)[lanes_away][vec_elems]) {
    if constexpr (t >= 0 && t < vec_elems) {
      return row.e[t];
    } else {
      constexpr int off = rows_of::lane_of(t, vec_elems);
      return beyond[off - lane_lo][t - off * vec_elems];
    }
  }
};

}  // namespace kernels
}  // namespace tessera::cuda
