// Multigrid's fused red-black step and residual norm on the device (multigrid_kernels.hpp
// says what they compute and why they exist).
#include <algorithm>
#include <cstdint>
#include <string>

#include "tessera/core/errors.hpp"
#include "tessera/core/reduction.hpp"
#include "tessera/cuda/cuda_check.hpp"
#include "tessera/cuda/detail/cycle_recording.hpp"
#include "tessera/cuda/detail/multigrid_kernels.hpp"
#include "tessera/cuda/runtime.hpp"

namespace tessera::cuda {
namespace {

// The stream this thread's multigrid kernels launch on: the legacy default stream, or a
// cycle_recording's capture stream while it records (cycle_recording.hpp).
thread_local cudaStream_t launch_stream = nullptr;

// The red-black step's block: BX threads along the contiguous axis (Rank - 1) and, in 3D,
// BY along axis 1. Each thread owns two adjacent columns along axis 0, an even one (a) and
// the odd one after it (b): on every plane one of them takes the first colour and the other
// the second, so a warp never splits between colours, and with rows on 16-byte boundaries
// (views from extents) a pair is one vector load or store. The outer ring of threads only
// computes first-colour values for its neighbours (of the ring pairs in x, one column each),
// so a block writes 2 (BX - 2) x (BY - 2) columns: 28 x 14 in 3D, 252 in 2D (square 3D
// tiles waste less on the ring than 32 x 8 threads did, most on grids a few tiles wide).
// With one thread a column, a plane's index arithmetic, branches and warps split between
// the colours took longer than the memory did to deliver it; pairs halve that work per
// point. MinBlocks gives the registers the pipelines need without spilling (3D: 2 planes of
// u in flight), Ahead the planes of u loaded ahead of use.
template <class T>
struct pair_of;
template <>
struct pair_of<double> {
  using type = double2;
};
template <>
struct pair_of<float> {
  using type = float2;
};

// With Measure the residuals' registers leave less for the pipeline: 3D loads u one plane
// ahead, 2D holds 6 blocks an SM (either spilled otherwise).
template <int Rank, bool Measure>
struct step_block {
  static constexpr int x = Rank == 3 ? 16 : 128;
  static constexpr int y = Rank == 3 ? 16 : 1;
  static constexpr int min_blocks = Rank == 3 ? 3 : Measure ? 6 : 8;
  static constexpr int ahead = Rank == 3 && !Measure ? 2 : 1;
  static constexpr int columns_x = 2 * (x - 2), columns_y = Rank == 3 ? y - 2 : 1;  // written a block
};

// With Measure, the step also takes max |g - A' u| of its input u (atomically into *norm,
// as residual_max_kernel does): each thread on the planes its block writes, both columns,
// from the pairs it holds anyway, so the norm a solver checks after every cycle costs no
// pass of its own over u and g.
template <class T, int Rank, int BX, int BY, int MinBlocks, int Ahead, bool Measure>
__global__ void __launch_bounds__(BX * BY, MinBlocks)
    red_black_step_kernel(view_accessor<const T, Rank> u, view_accessor<const T, Rank> g, view_accessor<T, Rank> out,
                          star_level<T, Rank> op, T weight, int first, index_t chunk, bool pairs_aligned,
                          double* norm) {
  static_assert(Ahead == 1 || Ahead == 2);
  using P = typename pair_of<T>::type;
  constexpr int X = Rank - 1;  // the contiguous axis; axis 1 is y in 3D
  // plane k's pairs after the first colour's update, three planes in turn (a plane's slot is
  // written again three planes later, after every thread has read it: one __syncthreads a
  // plane orders both); u's pairs of plane k, two in turn, for the first colour's lateral reads
  __shared__ P first_done[3][BY][BX];
  __shared__ P u_plane[2][BY][BX];
  const int tx = threadIdx.x, ty = Rank == 3 ? threadIdx.y : 0;
  const index_t n0 = u.n[0], ny = Rank == 3 ? u.n[1] : 1, nx = u.n[X];
  const index_t xa = static_cast<index_t>(blockIdx.x) * (2 * BX - 4) - 2 + 2 * tx, xb = xa + 1;  // xa is even
  const index_t cy = Rank == 3 ? static_cast<index_t>(blockIdx.y) * (BY - 2) + ty - 1 : 0;
  const index_t k0 = static_cast<index_t>(Rank == 3 ? blockIdx.z : blockIdx.y) * chunk;
  const index_t k1 = k0 + chunk < n0 ? k0 + chunk : n0;
  const bool row = Rank == 2 || (cy >= 0 && cy < ny);
  const bool va = row && xa >= 0 && xa < nx, vb = row && xb >= 0 && xb < nx;
  const bool vector = va && vb && pairs_aligned;
  const bool writes = (va || vb) && tx > 0 && tx < BX - 1 && (Rank == 2 || (ty > 0 && ty < BY - 1));
  const index_t us = u.stride[0], gs = g.stride[0], os = out.stride[0];
  const index_t ux = u.stride[X], gx = g.stride[X], ox = out.stride[X], uy = Rank == 3 ? u.stride[1] : 0;
  const T* ucol = u.origin + xa * ux + cy * uy;
  const T* gcol = g.origin + xa * gx + (Rank == 3 ? cy * g.stride[1] : 0);
  T* ocol = out.origin + xa * ox + (Rank == 3 ? cy * out.stride[1] : 0);
  // beyond a face, the wall's rule on the point beside it
  const auto beyond = [&](int face, T own) { return op.a[face] * own + op.b[face]; };
  // a pair on plane k (zero where the column or plane lies outside the interior: never read)
  const auto load = [&](const T* col, index_t plane_stride, index_t stride_x, index_t k) -> P {
    if (k < 0 || k >= n0) return P{0, 0};
    const T* p = col + k * plane_stride;
    if (vector) return *reinterpret_cast<const P*>(p);
    return P{va ? p[0] : T(0), vb ? p[stride_x] : T(0)};
  };
  // u on planes k - 1, k, k + 1 and Ahead planes beyond (loaded before they are needed: a
  // plane's step is short, and a load issued just before use stalls it); g on k - 1, k, k + 1;
  // the first colour's values on k - 2, k - 1, k
  P um = load(ucol, us, ux, k0 - 2), uc = load(ucol, us, ux, k0 - 1), up{0, 0}, un = load(ucol, us, ux, k0);
  P un2 = Ahead == 2 ? load(ucol, us, ux, k0 + 1) : P{0, 0};
  P gm{0, 0}, gc{0, 0}, gn = load(gcol, gs, gx, k0 - 1);
  P qmm{0, 0}, qm{0, 0};
  const T inv_diag = T(1) / op.diag;
  const int txl = tx > 0 ? tx - 1 : tx, txr = tx < BX - 1 ? tx + 1 : tx;  // the ring's unused reads stay inside
  u_plane[(k0 - 1) & 1][ty][tx] = uc;
  __syncthreads();
  int slot = 0;
  double worst = 0;  // Measure: max |g - A' u| over this thread's points
  for (index_t k = k0 - 1; k <= k1; ++k) {
    up = un;
    if constexpr (Ahead == 2) {
      un = un2;
      un2 = load(ucol, us, ux, k + 3);
    } else {
      un = load(ucol, us, ux, k + 2);
    }
    gc = gn;
    gn = load(gcol, gs, gx, k + 1);
    P q = uc;  // the second colour keeps u
    if ((va || vb) && k >= 0 && k < n0) {
      const bool fa = ((cy + k) & 1) == first;  // column a takes the first colour on plane k
      const bool valid = fa ? va : vb;
      const int s = static_cast<int>(k & 1);
      const T own = fa ? uc.x : uc.y;
      const index_t xf = fa ? xa : xb;
      T off = op.w[0] * ((k > 0 ? (fa ? um.x : um.y) : beyond(0, own)) + (k < n0 - 1 ? (fa ? up.x : up.y) : beyond(1, own)));
      if constexpr (Rank == 3) {
        // the ring rows' outer neighbours lie in the next block's tile: read from memory
        const T* p = ucol + k * us + (fa ? 0 : ux);
        const T down = ty > 0 ? (fa ? u_plane[s][ty - 1][tx].x : u_plane[s][ty - 1][tx].y)
                              : (valid && cy > 0 ? p[-uy] : T(0));
        const T upper = ty < BY - 1 ? (fa ? u_plane[s][ty + 1][tx].x : u_plane[s][ty + 1][tx].y)
                                    : (valid && cy < ny - 1 ? p[uy] : T(0));
        off += op.w[1] * ((cy > 0 ? down : beyond(2, own)) + (cy < ny - 1 ? upper : beyond(3, own)));
      }
      const T left = fa ? u_plane[s][ty][txl].y : uc.x, right = fa ? uc.y : u_plane[s][ty][txr].x;
      off += op.w[X] * ((xf > 0 ? left : beyond(2 * X, own)) + (xf < nx - 1 ? right : beyond(2 * X + 1, own)));
      const T updated = own + weight * (((fa ? gc.x : gc.y) + off) * inv_diag - own);
      if (fa) q.x = updated;
      else q.y = updated;
      if constexpr (Measure) {
        if (writes && k >= k0 && k < k1) {
          // both columns' residuals from u's pairs (a writing thread's lateral neighbours are
          // all in the block; reusing the first colour's sum for its column was slower)
          const P* here = &u_plane[s][ty][tx];
          const auto residual = [&](bool col_a) {
            const T v = col_a ? uc.x : uc.y;
            const index_t xc = col_a ? xa : xb;
            T o = op.w[0] * ((k > 0 ? (col_a ? um.x : um.y) : beyond(0, v)) +
                             (k < n0 - 1 ? (col_a ? up.x : up.y) : beyond(1, v)));
            if constexpr (Rank == 3)
              o += op.w[1] * ((cy > 0 ? (col_a ? here[-BX].x : here[-BX].y) : beyond(2, v)) +
                              (cy < ny - 1 ? (col_a ? here[BX].x : here[BX].y) : beyond(3, v)));
            const T l = col_a ? here[-1].y : uc.x, r = col_a ? uc.y : here[1].x;
            o += op.w[X] * ((xc > 0 ? l : beyond(2 * X, v)) + (xc < nx - 1 ? r : beyond(2 * X + 1, v)));
            return fabs(static_cast<double>((col_a ? gc.x : gc.y) + o - op.diag * v));
          };
          if (va) worst = max_keeping_nan(worst, residual(true));
          if (vb) worst = max_keeping_nan(worst, residual(false));
        }
      }
    }
    first_done[slot][ty][tx] = q;
    u_plane[(k + 1) & 1][ty][tx] = up;
    __syncthreads();
    const index_t kb = k - 1;  // the second colour's plane
    if (writes && kb >= k0) {
      const bool sa = ((cy + kb) & 1) != first;  // column a takes the second colour on plane kb
      const int s = slot == 0 ? 2 : slot - 1;
      const T own = sa ? um.x : um.y;
      const index_t xs = sa ? xa : xb;
      T off = op.w[0] * ((kb > 0 ? (sa ? qmm.x : qmm.y) : beyond(0, own)) + (kb < n0 - 1 ? (sa ? q.x : q.y) : beyond(1, own)));
      if constexpr (Rank == 3)
        off += op.w[1] * ((cy > 0 ? (sa ? first_done[s][ty - 1][tx].x : first_done[s][ty - 1][tx].y) : beyond(2, own)) +
                          (cy < ny - 1 ? (sa ? first_done[s][ty + 1][tx].x : first_done[s][ty + 1][tx].y) : beyond(3, own)));
      const T left = sa ? first_done[s][ty][tx - 1].y : qm.x, right = sa ? qm.y : first_done[s][ty][tx + 1].x;
      off += op.w[X] * ((xs > 0 ? left : beyond(2 * X, own)) + (xs < nx - 1 ? right : beyond(2 * X + 1, own)));
      const T updated = own + weight * (((sa ? gm.x : gm.y) + off) * inv_diag - own);
      P result = qm;
      if (sa) result.x = updated;
      else result.y = updated;
      T* po = ocol + kb * os;
      if (vector) {
        *reinterpret_cast<P*>(po) = result;
      } else {
        if (va) po[0] = result.x;
        if (vb) po[ox] = result.y;
      }
    }
    qmm = qm;
    qm = q;
    um = uc;
    uc = up;
    gm = gc;
    slot = slot == 2 ? 0 : slot + 1;
  }
  if constexpr (Measure) {
    for (int s = 16; s > 0; s >>= 1) worst = max_keeping_nan(worst, __shfl_down_sync(0xffffffffu, worst, s));
    // non-negative doubles order like their bit patterns, +NaN above +inf
    if ((ty * BX + tx) % 32 == 0)
      atomicMax(reinterpret_cast<unsigned long long*>(norm), static_cast<unsigned long long>(__double_as_longlong(worst)));
  }
}

/// A' u at interior point (c0, c1, c2) (2D: c1 unused, c2 the contiguous axis), the
/// neighbours beyond a face by its rule; off summed axis by axis as the point functions do.
template <class T, int Rank>
__device__ inline T star_at(const view_accessor<const T, Rank>& u, const star_level<T, Rank>& op, index_t c0,
                            index_t c1, index_t c2) {
  constexpr int X = Rank - 1;
  const index_t s0 = u.stride[0], s1 = Rank == 3 ? u.stride[1] : 0, sx = u.stride[X];
  const T* p = u.origin + c0 * s0 + (Rank == 3 ? c1 * s1 : 0) + c2 * sx;
  const T own = p[0];
  const auto beyond = [&](int face) { return op.a[face] * own + op.b[face]; };
  T off = op.w[0] * ((c0 < u.n[0] - 1 ? p[s0] : beyond(1)) + (c0 > 0 ? p[-s0] : beyond(0)));
  if constexpr (Rank == 3) off += op.w[1] * ((c1 < u.n[1] - 1 ? p[s1] : beyond(3)) + (c1 > 0 ? p[-s1] : beyond(2)));
  off += op.w[X] * ((c2 < u.n[X] - 1 ? p[sx] : beyond(2 * X + 1)) + (c2 > 0 ? p[-sx] : beyond(2 * X)));
  return op.diag * own - off;
}

/// r = g - A' u at an interior point (as star_at).
template <class T, int Rank>
__device__ inline T residual_at(const view_accessor<const T, Rank>& u, const view_accessor<const T, Rank>& g,
                                const star_level<T, Rank>& op, index_t c0, index_t c1, index_t c2) {
  constexpr int X = Rank - 1;
  const T gv = g.origin[c0 * g.stride[0] + (Rank == 3 ? c1 * g.stride[1] : 0) + c2 * g.stride[X]];
  return gv - star_at<T, Rank>(u, op, c0, c1, c2);
}

constexpr int norm_threads = 256;

// One thread per point of a row along the contiguous axis; rows (the other axes flattened)
// by blockIdx.y, both grid-strided.
template <class T, int Rank>
__global__ void __launch_bounds__(norm_threads)
    residual_max_kernel(view_accessor<const T, Rank> u, view_accessor<const T, Rank> g, star_level<T, Rank> op,
                        index_t rows, double* result) {
  __shared__ double part[norm_threads / 32];
  const index_t nx = u.n[Rank - 1];
  double acc = 0;
  // four rows an iteration: four points' loads in flight at once
  for (index_t x = static_cast<index_t>(blockIdx.x) * norm_threads + threadIdx.x; x < nx;
       x += static_cast<index_t>(gridDim.x) * norm_threads)
    for (index_t row0 = 4 * static_cast<index_t>(blockIdx.y); row0 < rows; row0 += 4 * static_cast<index_t>(gridDim.y)) {
      T r[4];
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        const index_t row = row0 + j < rows ? row0 + j : row0;
        const index_t c0 = Rank == 3 ? row / u.n[1] : row, c1 = Rank == 3 ? row % u.n[1] : 0;
        r[j] = residual_at<T, Rank>(u, g, op, c0, c1, x);
      }
#pragma unroll
      for (int j = 0; j < 4; ++j) acc = max_keeping_nan(acc, fabs(static_cast<double>(r[j])));
    }
  for (int s = 16; s > 0; s >>= 1) acc = max_keeping_nan(acc, __shfl_down_sync(0xffffffffu, acc, s));
  if (threadIdx.x % 32 == 0) part[threadIdx.x / 32] = acc;
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int i = 1; i < norm_threads / 32; ++i) acc = max_keeping_nan(acc, part[i]);
    // non-negative doubles order like their bit patterns, +NaN above +inf
    atomicMax(reinterpret_cast<unsigned long long*>(result), static_cast<unsigned long long>(__double_as_longlong(acc)));
  }
}

/// The coordinates on axes 0 .. last of flat index i over extents n (axis `last` fastest):
/// a point's (last = Rank - 1) or a row's (last = Rank - 2, the rows of all axes but the last).
template <int Rank>
__device__ inline void unflatten(index_t i, const array<index_t, Rank>& n, int last, index_t (&c)[Rank]) {
  for (int d = last; d >= 0; --d) {
    c[d] = i % n[d];
    i /= n[d];
  }
}

// Residual and restriction: coarse point I = sum over its taps of w * r(fine tap), r computed
// on the spot (last axis fastest, as restrict_point sums); rows of coarse points in the
// order of the rows they read, so that the fine rows a block shares with the next stay in
// L2 (a version that staged each tile's residuals in shared memory reread the planes at
// the tiles' edges from memory and was slower).
template <class T, int Rank>
__global__ void __launch_bounds__(128)
    residual_restrict_kernel(view_accessor<const T, Rank> u, view_accessor<const T, Rank> g,
                             view_accessor<T, Rank> coarse, star_level<T, Rank> op, coarsening_modes<Rank> modes,
                             index_t rows) {
  const index_t nx = coarse.n[Rank - 1];
  for (index_t row = blockIdx.y; row < rows; row += gridDim.y) {
    index_t I[Rank];
    unflatten<Rank>(row, coarse.n, Rank - 2, I);
    for (index_t x = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x; x < nx;
         x += static_cast<index_t>(gridDim.x) * blockDim.x) {
      I[Rank - 1] = x;
      tessera::detail::restriction_taps t[3];
      for (int d = 0; d < Rank; ++d) t[d] = tessera::detail::restriction_along(I[d], modes[d], false);
      if constexpr (Rank == 2) t[2] = t[1], t[1] = {0, 1, {1.0, 0.0, 0.0, 0.0}};  // the loops below are 3D
      T sum = 0;
      for (int j0 = 0; j0 < t[0].count; ++j0)
        for (int j1 = 0; j1 < t[1].count; ++j1)
          for (int j2 = 0; j2 < t[2].count; ++j2) {
            const double w = t[0].w[j0] * t[1].w[j1] * t[2].w[j2];
            const T r = residual_at<T, Rank>(u, g, op, t[0].first + j0, t[1].first + j1, t[2].first + j2);
            sum += static_cast<T>(w) * r;
          }
      index_t off = 0;
      for (int d = 0; d < Rank; ++d) off += I[d] * coarse.stride[d];
      coarse.origin[off] = sum;
    }
  }
}

// fine point i += sum of its prolongation taps; a coarse tap beyond a face is the product of
// the faces' a times the interior point it mirrors (b = 0). The taps along all axes but the
// last are the same for a whole row: worked out once a row for four points of it.
template <class T, int Rank>
__global__ void __launch_bounds__(128)
    prolong_correction_kernel(view_accessor<const T, Rank> coarse, view_accessor<T, Rank> fine,
                              star_level<T, Rank> cop, coarsening_modes<Rank> modes, index_t rows) {
  constexpr int X = Rank - 1, R = 1 << (Rank - 1);
  const index_t nx = fine.n[X], cnx = coarse.n[X];
  for (index_t row = blockIdx.y; row < rows; row += gridDim.y) {
    index_t i[Rank];
    unflatten<Rank>(row, fine.n, Rank - 2, i);
    index_t roff[R];
    double rw[R];
    T rf[R];
    for (int k = 0; k < R; ++k) {
      roff[k] = 0, rw[k] = 1, rf[k] = 1;
      for (int d = 0; d < Rank - 1; ++d) {
        const auto t = tessera::detail::prolongation_along(i[d], modes[d]);
        const bool second = (k >> (Rank - 2 - d)) & 1;
        index_t c = second ? t.i1 : t.i0;
        rw[k] *= second ? t.w1 : t.w0;
        if (c < 0) c = 0, rf[k] *= cop.a[2 * d];
        if (c >= coarse.n[d]) c = coarse.n[d] - 1, rf[k] *= cop.a[2 * d + 1];
        roff[k] += c * coarse.stride[d];
      }
    }
    index_t foff = 0;
    for (int d = 0; d < Rank - 1; ++d) foff += i[d] * fine.stride[d];
    for (index_t x = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x; x < nx;
         x += static_cast<index_t>(gridDim.x) * blockDim.x) {
      const auto t = tessera::detail::prolongation_along(x, modes[X]);
      index_t cx[2] = {t.i0, t.i1};
      T xf[2] = {T(1), T(1)};
      for (int j = 0; j < 2; ++j) {
        if (cx[j] < 0) cx[j] = 0, xf[j] = cop.a[2 * X];
        if (cx[j] >= cnx) cx[j] = cnx - 1, xf[j] = cop.a[2 * X + 1];
      }
      T sum = 0;
#pragma unroll
      for (int k = 0; k < R; ++k)
#pragma unroll
        for (int j = 0; j < 2; ++j) {
          const double w = rw[k] * (j ? t.w1 : t.w0);
          if (w != 0) sum += static_cast<T>(w) * ((rf[k] * xf[j]) * coarse.origin[roff[k] + cx[j] * coarse.stride[X]]);
        }
      fine.origin[foff + x * fine.stride[X]] += sum;
    }
  }
}

// Prolongation by pairs, for axes that all coarsen (vertex or cell): along each axis the
// fine pair (2p, 2p + 1) takes coarse p - 1, p, p + 1 with the same weights for every p
// (w[axis][which of the pair][offset + 1]). A thread owns a pair along x and, in 3D, a pair
// of rows along y, and marches along axis 0 over the pairs of planes of its chunk: each
// coarse plane is interpolated in y and x once (into the 2 x 2 values its fine rows and
// columns take) and serves the four fine planes around it, so a fine point costs about one
// coarse load where a point-by-point kernel reads eight (and recomputes its taps).
template <class T, int Rank>
struct pair_prolongation {
  T w[Rank][2][3];
};

template <class T, int Rank>
pair_prolongation<T, Rank> pair_weights(const coarsening_modes<Rank>& modes) {
  pair_prolongation<T, Rank> p{};
  for (int d = 0; d < Rank; ++d)
    for (int f = 0; f < 2; ++f) {  // fine 2 + f of pair 1: coarse 0, 1, 2 are offsets -1, 0, +1
      const auto t = tessera::detail::prolongation_along(2 + f, modes[d]);
      p.w[d][f][t.i0] += static_cast<T>(t.w0);
      p.w[d][f][t.i1] += static_cast<T>(t.w1);
    }
  return p;
}

/// w . v over the taps of nonzero weight (a zero weight's value is not read: it may be NaN)
template <class T>
__device__ inline T taps3(const T (&w)[3], T v0, T v1, T v2) {
  T s = 0;
  if (w[0] != T(0)) s += w[0] * v0;
  if (w[1] != T(0)) s += w[1] * v1;
  if (w[2] != T(0)) s += w[2] * v2;
  return s;
}

template <int Rank>
struct prolong_block {
  static constexpr int x = Rank == 3 ? 32 : 128;  // pairs along x
  static constexpr int y = Rank == 3 ? 4 : 1;     // pairs of rows along y
  static constexpr int min_blocks = Rank == 3 ? 4 : 8;
};

template <class T, int Rank, int BX, int BY, int MinBlocks>
__global__ void __launch_bounds__(BX * BY, MinBlocks)
    prolong_pairs_kernel(view_accessor<const T, Rank> coarse, view_accessor<T, Rank> fine, star_level<T, Rank> cop,
                         pair_prolongation<T, Rank> pw, index_t chunk, bool aligned) {
  using P = typename pair_of<T>::type;
  constexpr int X = Rank - 1, Y = Rank == 3 ? 1 : 0;
  const index_t px = static_cast<index_t>(blockIdx.x) * BX + threadIdx.x;
  const index_t py = Rank == 3 ? static_cast<index_t>(blockIdx.y) * BY + threadIdx.y : 0;
  const index_t nx = fine.n[X];
  if (2 * px >= nx || (Rank == 3 && 2 * py >= fine.n[Y])) return;
  const index_t npz = (fine.n[0] + 1) / 2;
  const index_t pz0 = static_cast<index_t>(Rank == 3 ? blockIdx.z : blockIdx.y) * chunk;
  const index_t pz1 = pz0 + chunk < npz ? pz0 + chunk : npz;
  const bool second_x = 2 * px + 1 < nx;
  const bool vector = aligned && second_x;
  // a coarse index clamped into the interior, and the wall's factor for the ghost it stood for
  const auto clamped = [&](index_t c, int d, T& factor) -> index_t {
    factor = T(1);
    if (c < 0) {
      factor = cop.a[2 * d];
      return 0;
    }
    if (c >= coarse.n[d]) {
      factor = cop.a[2 * d + 1];
      return coarse.n[d] - 1;
    }
    return c;
  };
  index_t cx[3], cy[3] = {0, 0, 0};
  T fx[3], fy[3] = {T(1), T(1), T(1)};
  bool need_x[3], need_y[3] = {false, true, false};
  for (int o = 0; o < 3; ++o) {
    cx[o] = clamped(px - 1 + o, X, fx[o]) * coarse.stride[X];
    need_x[o] = pw.w[X][0][o] != T(0) || pw.w[X][1][o] != T(0);
    if constexpr (Rank == 3) {
      cy[o] = clamped(py - 1 + o, Y, fy[o]) * coarse.stride[Y];
      need_y[o] = pw.w[Y][0][o] != T(0) || pw.w[Y][1][o] != T(0);
    }
  }
  // coarse plane c interpolated in y and x: q[row of the pair][column of the pair]
  const auto plane = [&](index_t c, T (&q)[2][2]) {
    T fz;
    const T* base = coarse.origin + clamped(c, 0, fz) * coarse.stride[0];
    T r[3][2];
#pragma unroll
    for (int j = 0; j < 3; ++j) {
      r[j][0] = r[j][1] = T(0);
      if (!need_y[j]) continue;
      T v[3];
#pragma unroll
      for (int o = 0; o < 3; ++o) v[o] = need_x[o] ? fx[o] * __ldg(base + cy[j] + cx[o]) : T(0);
#pragma unroll
      for (int f = 0; f < 2; ++f) r[j][f] = fy[j] * taps3(pw.w[X][f], v[0], v[1], v[2]);
    }
#pragma unroll
    for (int f = 0; f < 2; ++f)
#pragma unroll
      for (int e = 0; e < 2; ++e)
        q[f][e] = fz * (Rank == 3 ? taps3(pw.w[Y][f], r[0][e], r[1][e], r[2][e]) : r[1][e]);
  };
  T qm[2][2], q0[2][2], qp[2][2];
  plane(pz0 - 1, qm);
  plane(pz0, q0);
  const index_t fs0 = fine.stride[0], fsx = fine.stride[X], fsy = Rank == 3 ? fine.stride[Y] : 0;
  T* const col = fine.origin + 2 * py * fsy + 2 * px * fsx;
  const int rows = Rank == 3 && 2 * py + 1 < fine.n[Y] ? 2 : 1;
  for (index_t pz = pz0; pz < pz1; ++pz) {
    const int planes = 2 * pz + 1 < fine.n[0] ? 2 : 1;
    // this pair of planes' fine values first, then the next coarse plane: all loads in flight together
    P v[2][2];
#pragma unroll
    for (int f = 0; f < 2; ++f)
#pragma unroll
      for (int e = 0; e < 2; ++e) {
        v[f][e] = P{0, 0};
        if (f >= planes || e >= rows) continue;
        const T* p = col + (2 * pz + f) * fs0 + e * fsy;
        if (vector) v[f][e] = *reinterpret_cast<const P*>(p);
        else v[f][e] = P{p[0], second_x ? p[fsx] : T(0)};
      }
    plane(pz + 1, qp);
#pragma unroll
    for (int f = 0; f < 2; ++f)
#pragma unroll
      for (int e = 0; e < 2; ++e) {
        if (f >= planes || e >= rows) continue;
        v[f][e].x += taps3(pw.w[0][f], qm[e][0], q0[e][0], qp[e][0]);
        v[f][e].y += taps3(pw.w[0][f], qm[e][1], q0[e][1], qp[e][1]);
        T* p = col + (2 * pz + f) * fs0 + e * fsy;
        if (vector) {
          *reinterpret_cast<P*>(p) = v[f][e];
        } else {
          p[0] = v[f][e].x;
          if (second_x) p[fsx] = v[f][e].y;
        }
      }
#pragma unroll
    for (int f = 0; f < 2; ++f)
#pragma unroll
      for (int e = 0; e < 2; ++e) qm[f][e] = q0[f][e], q0[f][e] = qp[f][e];
  }
}

// Residual and restriction by pairs, for axes that all coarsen (vertex or cell, the mean):
// a block computes g - A' u on a tile of fine rows (BY rows of BX pairs of columns: 8 rows
// for a cell y axis, 9 for a vertex one, whose coarse rows share their outer fine rows) and
// marches along axis 0; each fine plane's residuals go to shared memory, and on the next
// step the threads of the tile's coarse points (the first CX x CY) restrict them in y and
// x and accumulate along axis 0 in a register. u and g are read once; the lateral
// neighbours come from the tile's plane of u in shared memory (the tile's edges read theirs
// from memory), the neighbours along axis 0 from registers.
template <int Rank, bool VertexY>
struct restrict_block {
  static constexpr int x = Rank == 3 ? 32 : 128;               // pairs of fine columns
  static constexpr int y = Rank == 3 ? (VertexY ? 9 : 8) : 1;  // fine rows
  static constexpr int coarse_y = Rank == 3 ? 4 : 1;
  static constexpr int min_blocks = Rank == 3 ? 3 : 8;
};

template <class T, int Rank, int BX, int BY, int CY, int MinBlocks>
__global__ void __launch_bounds__(BX * BY, MinBlocks)
    residual_restrict_pairs_kernel(view_accessor<const T, Rank> u, view_accessor<const T, Rank> g,
                                   view_accessor<T, Rank> coarse, star_level<T, Rank> op, bool vertex_x, bool vertex_z,
                                   index_t chunk, bool aligned) {
  using P = typename pair_of<T>::type;
  constexpr int X = Rank - 1, Y = Rank == 3 ? 1 : 0;
  constexpr bool vertex_y = Rank == 3 && BY == 2 * CY + 1;
  __shared__ P u_s[2][BY][BX];
  __shared__ P r_s[2][BY][BX];
  const int tx = threadIdx.x, ty = Rank == 3 ? threadIdx.y : 0;
  const int CX = vertex_x ? BX - 1 : BX;
  const index_t I0 = static_cast<index_t>(blockIdx.x) * CX, J0 = Rank == 3 ? static_cast<index_t>(blockIdx.y) * CY : 0;
  const index_t n0 = u.n[0], ny = Rank == 3 ? u.n[Y] : 1, nx = u.n[X];
  const index_t xa = 2 * (I0 + tx), y = 2 * J0 + ty;
  const bool row = Rank == 2 || y < ny;
  const bool va = row && xa < nx, vb = row && xa + 1 < nx;
  const bool vector = aligned && va && vb;
  const index_t K0 = static_cast<index_t>(Rank == 3 ? blockIdx.z : blockIdx.y) * chunk;
  const index_t K1 = K0 + chunk < coarse.n[0] ? K0 + chunk : coarse.n[0];
  const index_t k_first = 2 * K0, k_last = vertex_z ? 2 * K1 : 2 * K1 - 1;
  const index_t us = u.stride[0], ux = u.stride[X], uy = Rank == 3 ? u.stride[Y] : 0;
  const T* ucol = u.origin + xa * ux + y * uy;
  const T* gcol = g.origin + xa * g.stride[X] + (Rank == 3 ? y * g.stride[Y] : 0);
  const auto beyond = [&](int face, T own) { return op.a[face] * own + op.b[face]; };
  // a pair on plane k of the column pair at p (zero outside the interior: never used)
  const auto load = [&](const T* p, index_t stride_x, bool a, bool b, bool vec) -> P {
    if (vec) return *reinterpret_cast<const P*>(p);
    return P{a ? p[0] : T(0), b ? p[stride_x] : T(0)};
  };
  const auto u_at = [&](index_t k) -> P {
    if (k < 0 || k >= n0) return P{0, 0};
    return load(ucol + k * us, ux, va, vb, vector);
  };
  P um = u_at(k_first - 1), uc = u_at(k_first), up{0, 0}, un = u_at(k_first + 1);
  // the coarse point this thread restricts into (the first CX x CY threads), and its weights
  const int lin = ty * BX + tx;
  const int ci = lin % CX, cj = lin / CX;
  const bool restricts = cj < CY && I0 + ci < coarse.n[X] && (Rank == 2 || J0 + cj < coarse.n[Y]);
  T* const cout = coarse.origin + (I0 + ci) * coarse.stride[X] + (Rank == 3 ? (J0 + cj) * coarse.stride[Y] : 0);
  const T wx[3] = {vertex_x ? T(0.25) : T(0.5), vertex_x ? T(0.5) : T(0.5), vertex_x ? T(0.25) : T(0)};
  const T wy[3] = {vertex_y ? T(0.25) : T(0.5), vertex_y ? T(0.5) : T(0.5), vertex_y ? T(0.25) : T(0)};
  T acc = 0;
  // restricts plane k's residuals (r_s[k & 1]) in y and x, and along axis 0 into acc
  const auto restrict_plane = [&](index_t k) {
    if (!restricts) return;
    const int s = static_cast<int>(k & 1);
    T sum = 0;
#pragma unroll
    for (int j = 0; j < (Rank == 3 ? 3 : 1); ++j) {
      if (Rank == 3 && j == 2 && !vertex_y) break;
      const P r = r_s[s][Rank == 3 ? 2 * cj + j : 0][ci];
      T row_sum = wx[0] * r.x + wx[1] * r.y;
      if (vertex_x) row_sum += wx[2] * r_s[s][Rank == 3 ? 2 * cj + j : 0][ci + 1].x;
      sum += (Rank == 3 ? wy[j] : T(1)) * row_sum;
    }
    const index_t K = k >> 1;
    if (vertex_z) {
      if ((k & 1) == 0) {
        if (k > k_first) cout[(K - 1) * coarse.stride[0]] = acc + T(0.25) * sum;
        acc = T(0.25) * sum;
      } else {
        acc += T(0.5) * sum;
      }
    } else if ((k & 1) == 0) {
      acc = T(0.5) * sum;
    } else {
      cout[K * coarse.stride[0]] = acc + T(0.5) * sum;
    }
  };
  for (index_t k = k_first; k <= k_last; ++k) {
    up = un;
    un = u_at(k + 2);
    const P gc = k < n0 ? load(gcol + k * g.stride[0], g.stride[X], va, vb, vector) : P{0, 0};
    const int s = static_cast<int>(k & 1);
    u_s[s][ty][tx] = uc;
    __syncthreads();
    P r{0, 0};
    if ((va || vb) && k < n0) {
      const T* p = ucol + k * us;
      T left = tx > 0 ? u_s[s][ty][tx - 1].y : (va && xa > 0 ? p[-ux] : T(0));
      T right = tx < BX - 1 ? u_s[s][ty][tx + 1].x : (vb && xa + 2 < nx ? p[2 * ux] : T(0));
      P down{0, 0}, upper{0, 0};
      if constexpr (Rank == 3) {
        down = ty > 0 ? u_s[s][ty - 1][tx] : (y > 0 ? load(p - uy, ux, va, vb, vector) : P{0, 0});
        upper = ty < BY - 1 ? u_s[s][ty + 1][tx] : (y + 1 < ny ? load(p + uy, ux, va, vb, vector) : P{0, 0});
      }
      const auto residual = [&](T own, T zm, T zp, T ym, T yp, T xm, T xp, T gv, index_t x) {
        T off = op.w[0] * ((k > 0 ? zm : beyond(0, own)) + (k < n0 - 1 ? zp : beyond(1, own)));
        if constexpr (Rank == 3) off += op.w[Y] * ((y > 0 ? ym : beyond(2, own)) + (y < ny - 1 ? yp : beyond(3, own)));
        off += op.w[X] * ((x > 0 ? xm : beyond(2 * X, own)) + (x < nx - 1 ? xp : beyond(2 * X + 1, own)));
        return gv - (op.diag * own - off);
      };
      r.x = residual(uc.x, um.x, up.x, down.x, upper.x, left, uc.y, gc.x, xa);
      r.y = residual(uc.y, um.y, up.y, down.y, upper.y, uc.x, right, gc.y, xa + 1);
    }
    r_s[s][ty][tx] = r;
    if (k > k_first) restrict_plane(k - 1);
    um = uc;
    uc = up;
  }
  __syncthreads();
  restrict_plane(k_last);
}

// v's interior = 0, a grid-strided loop over its rows (all axes but the last) and points.
template <class T, int Rank>
__global__ void __launch_bounds__(256) zero_interior_kernel(view_accessor<T, Rank> v, index_t rows) {
  const index_t nx = v.n[Rank - 1];
  for (index_t row = blockIdx.y; row < rows; row += gridDim.y) {
    index_t c[Rank];
    unflatten<Rank>(row, v.n, Rank - 2, c);
    index_t off = 0;
    for (int d = 0; d < Rank - 1; ++d) off += c[d] * v.stride[d];
    for (index_t x = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x; x < nx;
         x += static_cast<index_t>(gridDim.x) * blockDim.x)
      v.origin[off + x * v.stride[Rank - 1]] = T(0);
  }
}

constexpr int cg_threads = 1024;

/// The sum over the block of v (every thread gets it); part holds cg_threads / 32 doubles.
__device__ inline double block_sum(double v, double* part) {
  for (int s = 16; s > 0; s >>= 1) v += __shfl_down_sync(0xffffffffu, v, s);
  __syncthreads();  // part's previous use is over
  if (threadIdx.x % 32 == 0) part[threadIdx.x / 32] = v;
  __syncthreads();
  double total = 0;
  for (int i = 0; i < cg_threads / 32; ++i) total += part[i];  // the same order in every thread
  return total;
}

template <class T, int Rank>
__device__ inline T& at(const view_accessor<T, Rank>& v, const index_t (&c)[Rank]) {
  index_t off = 0;
  for (int d = 0; d < Rank; ++d) off += c[d] * v.stride[d];
  return v.origin[off];
}

// The multigrid solver's coarse CG (algorithms/multigrid.hpp: coarse_solve) in one block:
// r = g - A' u (its mean removed where singular), p = r, then the usual steps until
// r.r <= rtol^2 r0.r0. Directions have homogeneous walls (b = 0). Every thread loops over
// its points in the same order each phase, so its own points need no barrier between the
// phases that only touch them; a stencil on p does.
template <class T, int Rank>
__device__ inline T star_point(const view_accessor<const T, Rank>& v, const star_level<T, Rank>& op,
                               const index_t (&c)[Rank]) {
  return Rank == 3 ? star_at<T, Rank>(v, op, c[0], c[1], c[Rank - 1]) : star_at<T, Rank>(v, op, c[0], 0, c[Rank - 1]);
}

template <class T, int Rank>
__global__ void __launch_bounds__(cg_threads)
    coarse_cg_kernel(view_accessor<T, Rank> u, view_accessor<const T, Rank> g, view_accessor<T, Rank> r,
                     view_accessor<T, Rank> p, view_accessor<T, Rank> q, star_level<T, Rank> op, double rtol,
                     int max_iterations, bool singular) {
  __shared__ double part[cg_threads / 32];
  index_t points = 1;
  for (int d = 0; d < Rank; ++d) points *= u.n[d];
  star_level<T, Rank> hom = op;
  for (int f = 0; f < 2 * Rank; ++f) hom.b[f] = 0;
  double local = 0;
  for (index_t i = threadIdx.x; i < points; i += cg_threads) {
    index_t c[Rank];
    unflatten<Rank>(i, u.n, Rank - 1, c);
    const T v = at(g, c) - star_point<T, Rank>(u, op, c);
    at(r, c) = v;
    local += static_cast<double>(v);
  }
  if (singular) {
    const T mean = static_cast<T>(block_sum(local, part) / static_cast<double>(points));
    for (index_t i = threadIdx.x; i < points; i += cg_threads) {
      index_t c[Rank];
      unflatten<Rank>(i, u.n, Rank - 1, c);
      at(r, c) -= mean;
    }
  }
  local = 0;
  for (index_t i = threadIdx.x; i < points; i += cg_threads) {
    index_t c[Rank];
    unflatten<Rank>(i, u.n, Rank - 1, c);
    const T v = at(r, c);
    at(p, c) = v;
    local += static_cast<double>(v) * static_cast<double>(v);
  }
  double rr = block_sum(local, part);
  const double stop = rr * rtol * rtol;
  for (int it = 0; it < max_iterations && rr > stop && rr > 0; ++it) {
    __syncthreads();  // every p written before the stencil reads it
    local = 0;
    for (index_t i = threadIdx.x; i < points; i += cg_threads) {
      index_t c[Rank];
      unflatten<Rank>(i, u.n, Rank - 1, c);
      const T v = star_point<T, Rank>(p, hom, c);
      at(q, c) = v;
      local += static_cast<double>(at(p, c)) * static_cast<double>(v);
    }
    const double pq = block_sum(local, part);
    if (!(pq > 0)) break;  // exhausted (a singular direction, or rounding at the floor)
    const T alpha = static_cast<T>(rr / pq);
    local = 0;
    for (index_t i = threadIdx.x; i < points; i += cg_threads) {
      index_t c[Rank];
      unflatten<Rank>(i, u.n, Rank - 1, c);
      at(u, c) += alpha * at(p, c);
      const T v = at(r, c) + (-alpha) * at(q, c);
      at(r, c) = v;
      local += static_cast<double>(v) * static_cast<double>(v);
    }
    const double rr_new = block_sum(local, part);
    const T beta = static_cast<T>(rr_new / rr);
    __syncthreads();  // every stencil read of p is over before p changes
    for (index_t i = threadIdx.x; i < points; i += cg_threads) {
      index_t c[Rank];
      unflatten<Rank>(i, u.n, Rank - 1, c);
      at(p, c) = T(1) * at(r, c) + beta * at(p, c) + T(0);
    }
    rr = rr_new;
  }
}

unsigned capped(index_t n, index_t cap) { return static_cast<unsigned>(n < cap ? (n < 1 ? 1 : n) : cap); }

/// A 2D launch over the interior's rows (all axes but the last) and the last axis, threads
/// along the last: blocks enough for the device, the rest grid-strided.
template <int Rank>
dim3 rows_grid(const array<index_t, Rank>& n, int threads, index_t& rows, int points_per_thread = 1) {
  rows = 1;
  for (int d = 0; d < Rank - 1; ++d) rows *= n[d];
  const index_t span = static_cast<index_t>(threads) * points_per_thread;
  const index_t xblocks = (n[Rank - 1] + span - 1) / span;
  const index_t want = 16 * static_cast<index_t>(current_device_limits().multiprocessors) * (1024 / threads);
  const unsigned gx = capped(xblocks, 64);
  return dim3(gx, capped(rows, std::min<index_t>(65535, want / gx + 1)), 1);
}

template <int Rank>
bool empty(const array<index_t, Rank>& n) {
  for (int d = 0; d < Rank; ++d)
    if (n[d] < 1) return true;
  return false;
}

/// The blocks of `Kernel` an SM holds at `threads` a block, no dynamic shared memory (the
/// driver's answer; 1 if it cannot say).
template <auto Kernel>
int blocks_per_sm(int threads) {
  return std::max(1, detail::resident_blocks_per_sm<Kernel>(threads, 0));
}

/// The length of a marching block's chunk of `n` planes (or pairs of planes) for `tiles`
/// blocks a chunk: chunks enough for about four waves of `resident` blocks, none shorter than
/// `shortest` where there are planes enough (a chunk's start rereads planes its neighbour has).
inline index_t marching_chunk(index_t n, index_t tiles, index_t resident, index_t shortest) {
  const index_t chunks = (4 * resident + tiles - 1) / tiles;
  index_t chunk = (n + chunks - 1) / chunks;
  if (chunk < shortest) chunk = shortest;
  return chunk < n ? (chunk < 1 ? 1 : chunk) : n;
}

/// The grid of a marching kernel: tiles_x x tiles_y blocks a plane (2D: tiles_x a row), each
/// marching a chunk of `n` planes (marching_chunk's, for blocks_per_sm of `Kernel` an SM);
/// `chunk` gets the length. Refuses, naming `view` and `what`, a grid beyond the device's.
template <auto Kernel, int Rank>
dim3 marching_grid(index_t tiles_x, index_t tiles_y, index_t n, int threads, index_t shortest, index_t& chunk,
                   const char* view, const char* what) {
  const auto& lim = current_device_limits();
  const index_t resident = static_cast<index_t>(lim.multiprocessors) * blocks_per_sm<Kernel>(threads);
  chunk = marching_chunk(n, tiles_x * tiles_y, resident, shortest);
  const index_t chunks = (n + chunk - 1) / chunk;
  if (tiles_x > lim.max_grid_dim[0] || tiles_y > lim.max_grid_dim[1] || chunks > lim.max_grid_dim[Rank == 3 ? 2 : 1])
    throw invalid_argument_error(std::string("tessera: ") + what + ": view '" + view +
                                 "' is too large for one launch's grid");
  return dim3(static_cast<unsigned>(tiles_x), static_cast<unsigned>(Rank == 3 ? tiles_y : chunks),
              static_cast<unsigned>(Rank == 3 ? chunks : 1));
}

/// Whether every axis coarsens (no semi-coarsening): the marching transfer kernels' case.
template <int Rank>
bool all_axes_coarsen(const coarsening_modes<Rank>& modes) {
  for (int d = 0; d < Rank; ++d)
    if (modes[d] == coarsening::none) return false;
  return true;
}

}  // namespace

namespace {
/// Whether every pair (an even column and the next, rows and planes included) of each view
/// starts on the pair's size: then a pair is one vector access.
template <class T, int Rank>
bool pairs_aligned(const view_accessor<const T, Rank>& v) {
  if (v.stride[Rank - 1] != 1) return false;
  for (int d = 0; d < Rank - 1; ++d)
    if (v.stride[d] % 2 != 0) return false;
  return reinterpret_cast<std::uintptr_t>(v.origin) % (2 * sizeof(T)) == 0;
}
}  // namespace

namespace {
template <bool Measure, class T, int Rank, class B = step_block<Rank, Measure>>
void launch_red_black_step(const view_accessor<const T, Rank>& u, const view_accessor<const T, Rank>& g,
                           const view_accessor<T, Rank>& out, const star_level<T, Rank>& op, T weight,
                           int first_parity, double* norm) {
  if (empty<Rank>(u.n)) return;
  const auto& lim = current_device_limits();
  const index_t n0 = u.n[0];
  const index_t tiles_x = (u.n[Rank - 1] + B::columns_x - 1) / B::columns_x;
  const index_t tiles_y = Rank == 3 ? (u.n[1] + B::columns_y - 1) / B::columns_y : 1;
  // Chunks along axis 0: on large grids, blocks for about eight waves in chunks of at least
  // 32 planes (each chunk rereads two planes of u and recomputes one of the first colour);
  // on small ones (coarse levels), chunks down to 4 planes, so that two waves of blocks
  // share the marching (a coarse level marched by a handful of blocks is latency-bound).
  const index_t resident = static_cast<index_t>(lim.multiprocessors) * B::min_blocks;
  const index_t tiles = tiles_x * tiles_y;
  const index_t wanted = (8 * resident + tiles - 1) / tiles;
  index_t chunk = (n0 + wanted - 1) / wanted;
  if (chunk < 32) chunk = 32;
  if (tiles * ((n0 + chunk - 1) / chunk) < 2 * resident) {
    chunk = (n0 * tiles + 2 * resident - 1) / (2 * resident);
    if (chunk < 4) chunk = 4;
  }
  if (chunk > n0) chunk = n0;
  const index_t chunks = (n0 + chunk - 1) / chunk;
  if (tiles_y > lim.max_grid_dim[1] || chunks > lim.max_grid_dim[Rank == 3 ? 2 : 1] || tiles_x > lim.max_grid_dim[0])
    throw invalid_argument_error(std::string("tessera: multigrid red-black step: view '") + u.label +
                                 "' is too large for one launch's grid");
  const view_accessor<const T, Rank> out_read = out;
  const bool aligned = pairs_aligned(u) && pairs_aligned(g) && pairs_aligned(out_read);
  const dim3 block(B::x, B::y, 1);
  const dim3 grid(static_cast<unsigned>(tiles_x), static_cast<unsigned>(Rank == 3 ? tiles_y : chunks),
                  static_cast<unsigned>(Rank == 3 ? chunks : 1));
  red_black_step_kernel<T, Rank, B::x, B::y, B::min_blocks, B::ahead, Measure>
      <<<grid, block, 0, launch_stream>>>(u, g, out, op, weight, first_parity & 1, chunk, aligned, norm);
  detail::check_launch("red_black_step_kernel (view '" + std::string(u.label) + "')", "multigrid red-black step");
}
}  // namespace

namespace {
template <class T, int Rank, bool VertexY>
void launch_residual_restrict_pairs(const view_accessor<const T, Rank>& u, const view_accessor<const T, Rank>& g,
                                    const view_accessor<T, Rank>& coarse, const star_level<T, Rank>& op,
                                    const coarsening_modes<Rank>& modes) {
  using B = restrict_block<Rank, VertexY>;
  constexpr auto kernel = &residual_restrict_pairs_kernel<T, Rank, B::x, B::y, B::coarse_y, B::min_blocks>;
  const bool vertex_x = modes[Rank - 1] == coarsening::vertex;
  const index_t cx = vertex_x ? B::x - 1 : B::x;
  index_t chunk = 0;
  const dim3 grid = marching_grid<kernel, Rank>(
      (coarse.n[Rank - 1] + cx - 1) / cx, Rank == 3 ? (coarse.n[1] + B::coarse_y - 1) / B::coarse_y : 1, coarse.n[0],
      B::x * B::y, 8, chunk, coarse.label, "multigrid residual and restriction");
  const bool aligned = pairs_aligned(u) && pairs_aligned(g);
  kernel<<<grid, dim3(B::x, B::y, 1), 0, launch_stream>>>(u, g, coarse, op, vertex_x, modes[0] == coarsening::vertex, chunk, aligned);
  detail::check_launch("residual_restrict_pairs_kernel (view '" + std::string(coarse.label) + "')",
                       "multigrid residual and restriction");
}

template <class T, int Rank>
void launch_prolong_pairs(const view_accessor<const T, Rank>& coarse, const view_accessor<T, Rank>& fine,
                          const star_level<T, Rank>& coarse_op, const coarsening_modes<Rank>& modes) {
  using B = prolong_block<Rank>;
  constexpr auto kernel = &prolong_pairs_kernel<T, Rank, B::x, B::y, B::min_blocks>;
  index_t chunk = 0;  // pairs of fine planes
  const dim3 grid = marching_grid<kernel, Rank>(((fine.n[Rank - 1] + 1) / 2 + B::x - 1) / B::x,
                                                Rank == 3 ? ((fine.n[1] + 1) / 2 + B::y - 1) / B::y : 1,
                                                (fine.n[0] + 1) / 2, B::x * B::y, 4, chunk, fine.label,
                                                "multigrid prolongation");
  const view_accessor<const T, Rank> fine_read = fine;
  kernel<<<grid, dim3(B::x, B::y, 1), 0, launch_stream>>>(coarse, fine, coarse_op, pair_weights<T, Rank>(modes), chunk,
                                        pairs_aligned(fine_read));
  detail::check_launch("prolong_pairs_kernel (view '" + std::string(fine.label) + "')", "multigrid prolongation");
}
}  // namespace

template <class T, int Rank>
void red_black_step_device(const view_accessor<const T, Rank>& u, const view_accessor<const T, Rank>& g,
                           const view_accessor<T, Rank>& out, const star_level<T, Rank>& op, T weight,
                           int first_parity) {
  static_assert(Rank == 2 || Rank == 3);
  launch_red_black_step<false>(u, g, out, op, weight, first_parity, nullptr);
}

template <class T, int Rank>
double red_black_step_residual_device(const view_accessor<const T, Rank>& u, const view_accessor<const T, Rank>& g,
                                      const view_accessor<T, Rank>& out, const star_level<T, Rank>& op, T weight,
                                      int first_parity) {
  static_assert(Rank == 2 || Rank == 3);
  if (empty<Rank>(u.n)) return 0;
  double* slot = detail::result_slot();
  TESSERA_CUDA_CHECK(cudaMemsetAsync(slot, 0, sizeof(double)), "multigrid red-black step with the residual norm");
  launch_red_black_step<true>(u, g, out, op, weight, first_parity, slot);
  double result = 0;
  TESSERA_CUDA_CHECK(cudaMemcpy(&result, slot, sizeof(double), cudaMemcpyDeviceToHost),
                     "multigrid red-black step with the residual norm");
  return result;
}

template <class T, int Rank>
double residual_max_device(const view_accessor<const T, Rank>& u, const view_accessor<const T, Rank>& g,
                           const star_level<T, Rank>& op) {
  static_assert(Rank == 2 || Rank == 3);
  if (empty<Rank>(u.n)) return 0;
  double* slot = detail::result_slot();
  TESSERA_CUDA_CHECK(cudaMemsetAsync(slot, 0, sizeof(double)), "multigrid residual norm");
  index_t rows = 0;
  const dim3 grid = rows_grid<Rank>(u.n, norm_threads, rows);
  residual_max_kernel<T, Rank><<<grid, norm_threads, 0, launch_stream>>>(u, g, op, rows, slot);
  detail::check_launch("residual_max_kernel (view '" + std::string(u.label) + "')", "multigrid residual norm");
  double result = 0;
  TESSERA_CUDA_CHECK(cudaMemcpy(&result, slot, sizeof(double), cudaMemcpyDeviceToHost), "multigrid residual norm");
  return result;
}

template <class T, int Rank>
void residual_restrict_device(const view_accessor<const T, Rank>& u, const view_accessor<const T, Rank>& g,
                              const view_accessor<T, Rank>& coarse, const star_level<T, Rank>& op,
                              const coarsening_modes<Rank>& modes) {
  static_assert(Rank == 2 || Rank == 3);
  if (empty<Rank>(coarse.n)) return;
  if (all_axes_coarsen<Rank>(modes)) {
    const bool vertex_y = Rank == 3 && modes[1] == coarsening::vertex;
    if (vertex_y) launch_residual_restrict_pairs<T, Rank, true>(u, g, coarse, op, modes);
    else launch_residual_restrict_pairs<T, Rank, false>(u, g, coarse, op, modes);
    return;
  }
  index_t rows = 0;
  const dim3 grid = rows_grid<Rank>(coarse.n, 128, rows);
  residual_restrict_kernel<T, Rank><<<grid, 128, 0, launch_stream>>>(u, g, coarse, op, modes, rows);
  detail::check_launch("residual_restrict_kernel (view '" + std::string(coarse.label) + "')",
                       "multigrid residual and restriction");
}

template <class T, int Rank>
void prolong_correction_device(const view_accessor<const T, Rank>& coarse, const view_accessor<T, Rank>& fine,
                               const star_level<T, Rank>& coarse_op, const coarsening_modes<Rank>& modes) {
  static_assert(Rank == 2 || Rank == 3);
  for (int f = 0; f < 2 * Rank; ++f)
    if (coarse_op.b[f] != T(0))
      throw invalid_argument_error("tessera: multigrid prolongation: a correction's walls are homogeneous (b = 0)");
  if (empty<Rank>(fine.n)) return;
  if (all_axes_coarsen<Rank>(modes)) {
    launch_prolong_pairs<T, Rank>(coarse, fine, coarse_op, modes);
    return;
  }
  index_t rows = 0;
  // four points of a row a thread: the row's taps are worked out once for the four
  const dim3 grid = rows_grid<Rank>(fine.n, 128, rows, 4);
  prolong_correction_kernel<T, Rank><<<grid, 128, 0, launch_stream>>>(coarse, fine, coarse_op, modes, rows);
  detail::check_launch("prolong_correction_kernel (view '" + std::string(fine.label) + "')", "multigrid prolongation");
}

template <class T, int Rank>
void zero_interior_device(const view_accessor<T, Rank>& v) {
  static_assert(Rank == 2 || Rank == 3);
  if (empty<Rank>(v.n)) return;
  index_t rows = 0;
  const dim3 grid = rows_grid<Rank>(v.n, 256, rows);
  zero_interior_kernel<T, Rank><<<grid, 256, 0, launch_stream>>>(v, rows);
  detail::check_launch("zero_interior_kernel (view '" + std::string(v.label) + "')", "multigrid zero fill");
}

namespace detail {
void multigrid_launch_stream(cudaStream_t stream) { launch_stream = stream; }
}  // namespace detail

template <class T, int Rank>
void coarse_cg_device(const view_accessor<T, Rank>& u, const view_accessor<const T, Rank>& g,
                      const view_accessor<T, Rank>& r, const view_accessor<T, Rank>& p, const view_accessor<T, Rank>& q,
                      const star_level<T, Rank>& op, double rtol, int max_iterations, bool singular) {
  static_assert(Rank == 2 || Rank == 3);
  if (empty<Rank>(u.n)) return;
  index_t points = 1;
  for (int d = 0; d < Rank; ++d) points *= u.n[d];
  if (points > coarse_cg_max_points)
    throw invalid_argument_error("tessera: multigrid coarse CG in one block: view '" + std::string(u.label) + "' has " +
                                 std::to_string(points) + " points, more than " + std::to_string(coarse_cg_max_points));
  coarse_cg_kernel<T, Rank><<<1, cg_threads, 0, launch_stream>>>(u, g, r, p, q, op, rtol, max_iterations, singular);
  detail::check_launch("coarse_cg_kernel (view '" + std::string(u.label) + "')", "multigrid coarse solve");
}

#define TESSERA_MG_KERNELS_INSTANTIATE(T, R)                                                                         \
  template void red_black_step_device<T, R>(const view_accessor<const T, R>&, const view_accessor<const T, R>&,     \
                                            const view_accessor<T, R>&, const star_level<T, R>&, T, int);            \
  template double red_black_step_residual_device<T, R>(const view_accessor<const T, R>&,                         \
                                                       const view_accessor<const T, R>&, const view_accessor<T, R>&, \
                                                       const star_level<T, R>&, T, int);                             \
  template double residual_max_device<T, R>(const view_accessor<const T, R>&, const view_accessor<const T, R>&,     \
                                            const star_level<T, R>&);                                               \
  template void residual_restrict_device<T, R>(const view_accessor<const T, R>&, const view_accessor<const T, R>&,  \
                                               const view_accessor<T, R>&, const star_level<T, R>&,                 \
                                               const coarsening_modes<R>&);                                         \
  template void prolong_correction_device<T, R>(const view_accessor<const T, R>&, const view_accessor<T, R>&,       \
                                                const star_level<T, R>&, const coarsening_modes<R>&);               \
  template void zero_interior_device<T, R>(const view_accessor<T, R>&);                                         \
  template void coarse_cg_device<T, R>(const view_accessor<T, R>&, const view_accessor<const T, R>&,                \
                                       const view_accessor<T, R>&, const view_accessor<T, R>&,                      \
                                       const view_accessor<T, R>&, const star_level<T, R>&, double, int, bool);
TESSERA_MG_KERNELS_INSTANTIATE(float, 2)
TESSERA_MG_KERNELS_INSTANTIATE(float, 3)
TESSERA_MG_KERNELS_INSTANTIATE(double, 2)
TESSERA_MG_KERNELS_INSTANTIATE(double, 3)

}  // namespace tessera::cuda
