// Multigrid's fused red-black step and residual norm on the device (multigrid_kernels.hpp
// says what they compute and why they exist).
#include <algorithm>
#include <string>

#include "tessera/core/errors.hpp"
#include "tessera/core/reduction.hpp"
#include "tessera/cuda/cuda_check.hpp"
#include "tessera/cuda/multigrid_kernels.hpp"
#include "tessera/cuda/runtime.hpp"

namespace tessera::cuda {
namespace {

// The red-black step's block: BX threads along the contiguous axis (Rank - 1) and, in 3D,
// BY along axis 1; each thread owns one column along axis 0. The outer ring of threads only
// computes first-colour values for its neighbours, so a block writes (BX - 2) x (BY - 2)
// columns: 32 x 16 in 3D (0.82 of the threads write), 256 in 2D.
template <int Rank>
struct step_block {
  static constexpr int x = Rank == 3 ? 32 : 256;
  static constexpr int y = Rank == 3 ? 16 : 1;
};

template <class T, int Rank, int BX, int BY>
__global__ void __launch_bounds__(BX * BY, 1024 / (BX * BY))
    red_black_step_kernel(view_accessor<const T, Rank> u, view_accessor<const T, Rank> g, view_accessor<T, Rank> out,
                          star_level<T, Rank> op, T weight, int first, index_t chunk) {
  constexpr int X = Rank - 1;  // the contiguous axis; axis 1 is y in 3D
  // plane k's values after the first colour's update, three planes in turn: one
  // __syncthreads a plane orders a plane's writes before its reads and its reads before
  // the slot is written again two planes later
  __shared__ T plane[3][BY][BX];
  const int tx = threadIdx.x, ty = Rank == 3 ? threadIdx.y : 0;
  const index_t n0 = u.n[0], ny = Rank == 3 ? u.n[1] : 1, nx = u.n[X];
  const index_t cx = static_cast<index_t>(blockIdx.x) * (BX - 2) + tx - 1;
  const index_t cy = Rank == 3 ? static_cast<index_t>(blockIdx.y) * (BY - 2) + ty - 1 : 0;
  const index_t k0 = static_cast<index_t>(Rank == 3 ? blockIdx.z : blockIdx.y) * chunk;
  const index_t k1 = k0 + chunk < n0 ? k0 + chunk : n0;
  // the column lies in the interior; the block writes it (the outer ring of threads does not)
  const bool interior = cx >= 0 && cx < nx && (Rank == 2 || (cy >= 0 && cy < ny));
  const bool writes = interior && tx > 0 && tx < BX - 1 && (Rank == 2 || (ty > 0 && ty < BY - 1));
  const index_t us = u.stride[0], gs = g.stride[0], os = out.stride[0];
  const index_t ux = u.stride[X], uy = Rank == 3 ? u.stride[1] : 0;
  const T* ucol = u.origin + cx * ux + cy * uy;
  const T* gcol = g.origin + cx * g.stride[X] + (Rank == 3 ? cy * g.stride[1] : 0);
  T* ocol = out.origin + cx * out.stride[X] + (Rank == 3 ? cy * out.stride[1] : 0);
  const int parity0 = static_cast<int>((cx + cy) & 1);  // the column's parity at k = 0
  // beyond a face, the wall's rule on the point beside it
  const auto beyond = [&](int face, T own) { return op.a[face] * own + op.b[face]; };
  // u on planes k - 1, k, k + 1 (interior planes only); the first colour's values on
  // k - 2, k - 1, k; g on k - 1, k
  // u and g are loaded two planes before they are needed (u(k + 2), u(k + 3) in un, un2;
  // g(k + 1), g(k + 2) in gn, gn2): a plane's step is short, and a load issued only one
  // step ahead had often not arrived when the step needed it
  const auto load_u = [&](index_t k) { return interior && k >= 0 && k < n0 ? ucol[k * us] : T(0); };
  const auto load_g = [&](index_t k) { return interior && k >= 0 && k < n0 ? gcol[k * gs] : T(0); };
  T um = load_u(k0 - 2), uc = load_u(k0 - 1), up = 0, un = load_u(k0), un2 = load_u(k0 + 1);
  T qmm = 0, qm = 0, gm = 0, gc = 0, gn = load_g(k0 - 1), gn2 = load_g(k0);
  const T inv_diag = T(1) / op.diag;
  int slot = 0;
  for (index_t k = k0 - 1; k <= k1; ++k) {
    up = un;
    un = un2;
    un2 = load_u(k + 3);
    gc = gn;
    gn = gn2;
    gn2 = load_g(k + 2);
    T q = uc;  // the second colour keeps u; outside the interior q is never read
    if (interior && k >= 0 && k < n0) {
      if (((static_cast<int>(k & 1) + parity0) & 1) == first) {
        const T* p = ucol + k * us;
        T off = op.w[0] * ((k > 0 ? um : beyond(0, uc)) + (k < n0 - 1 ? up : beyond(1, uc)));
        if constexpr (Rank == 3)
          off += op.w[1] * ((cy > 0 ? p[-uy] : beyond(2, uc)) + (cy < ny - 1 ? p[uy] : beyond(3, uc)));
        off += op.w[X] * ((cx > 0 ? p[-ux] : beyond(2 * X, uc)) + (cx < nx - 1 ? p[ux] : beyond(2 * X + 1, uc)));
        q = uc + weight * ((gc + off) * inv_diag - uc);
      }
    }
    plane[slot][ty][tx] = q;
    __syncthreads();
    const index_t kb = k - 1;  // the second colour's plane
    if (writes && kb >= k0) {
      T v = qm;
      if (((static_cast<int>(kb & 1) + parity0) & 1) != first) {
        const int s = slot == 0 ? 2 : slot - 1;
        T off = op.w[0] * ((kb > 0 ? qmm : beyond(0, um)) + (kb < n0 - 1 ? q : beyond(1, um)));
        if constexpr (Rank == 3)
          off += op.w[1] * ((cy > 0 ? plane[s][ty - 1][tx] : beyond(2, um)) +
                            (cy < ny - 1 ? plane[s][ty + 1][tx] : beyond(3, um)));
        off += op.w[X] * ((cx > 0 ? plane[s][ty][tx - 1] : beyond(2 * X, um)) +
                          (cx < nx - 1 ? plane[s][ty][tx + 1] : beyond(2 * X + 1, um)));
        v = um + weight * ((gm + off) * inv_diag - um);
      }
      ocol[kb * os] = v;
    }
    qmm = qm;
    qm = q;
    um = uc;
    uc = up;
    gm = gc;
    slot = slot == 2 ? 0 : slot + 1;
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

}  // namespace

namespace {
template <class T, int Rank, int BX, int BY>
void launch_red_black_step(const view_accessor<const T, Rank>& u, const view_accessor<const T, Rank>& g,
                           const view_accessor<T, Rank>& out, const star_level<T, Rank>& op, T weight,
                           int first_parity) {
  if (empty<Rank>(u.n)) return;
  const auto& lim = current_device_limits();
  const index_t n0 = u.n[0];
  const index_t tiles_x = (u.n[Rank - 1] + BX - 3) / (BX - 2);
  const index_t tiles_y = Rank == 3 ? (u.n[1] + BY - 3) / (BY - 2) : 1;
  // Chunks along axis 0: on large grids, blocks for about eight waves in chunks of at least
  // 32 planes (each chunk rereads two planes of u and recomputes one of the first colour);
  // on small ones (coarse levels), chunks down to 4 planes, so that two waves of blocks
  // share the marching (a coarse level marched by a handful of blocks is latency-bound).
  const index_t resident = static_cast<index_t>(lim.multiprocessors) * (2048 / (BX * BY));
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
  const dim3 block(BX, BY, 1);
  const dim3 grid(static_cast<unsigned>(tiles_x), static_cast<unsigned>(Rank == 3 ? tiles_y : chunks),
                  static_cast<unsigned>(Rank == 3 ? chunks : 1));
  red_black_step_kernel<T, Rank, BX, BY><<<grid, block>>>(u, g, out, op, weight, first_parity & 1, chunk);
  detail::check_launch("red_black_step_kernel (view '" + std::string(u.label) + "')", "multigrid red-black step");
}
}  // namespace

template <class T, int Rank>
void red_black_step_device(const view_accessor<const T, Rank>& u, const view_accessor<const T, Rank>& g,
                           const view_accessor<T, Rank>& out, const star_level<T, Rank>& op, T weight,
                           int first_parity) {
  static_assert(Rank == 2 || Rank == 3);
  launch_red_black_step<T, Rank, step_block<Rank>::x, step_block<Rank>::y>(u, g, out, op, weight, first_parity);
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
  residual_max_kernel<T, Rank><<<grid, norm_threads>>>(u, g, op, rows, slot);
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
  index_t rows = 0;
  const dim3 grid = rows_grid<Rank>(coarse.n, 128, rows);
  residual_restrict_kernel<T, Rank><<<grid, 128>>>(u, g, coarse, op, modes, rows);
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
  index_t rows = 0;
  // four points of a row a thread: the row's taps are worked out once for the four
  const dim3 grid = rows_grid<Rank>(fine.n, 128, rows, 4);
  prolong_correction_kernel<T, Rank><<<grid, 128>>>(coarse, fine, coarse_op, modes, rows);
  detail::check_launch("prolong_correction_kernel (view '" + std::string(fine.label) + "')", "multigrid prolongation");
}

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
  coarse_cg_kernel<T, Rank><<<1, cg_threads>>>(u, g, r, p, q, op, rtol, max_iterations, singular);
  detail::check_launch("coarse_cg_kernel (view '" + std::string(u.label) + "')", "multigrid coarse solve");
}

#define TESSERA_MG_KERNELS_INSTANTIATE(T, R)                                                                         \
  template void red_black_step_device<T, R>(const view_accessor<const T, R>&, const view_accessor<const T, R>&,     \
                                            const view_accessor<T, R>&, const star_level<T, R>&, T, int);            \
  template double residual_max_device<T, R>(const view_accessor<const T, R>&, const view_accessor<const T, R>&,     \
                                            const star_level<T, R>&);                                               \
  template void residual_restrict_device<T, R>(const view_accessor<const T, R>&, const view_accessor<const T, R>&,  \
                                               const view_accessor<T, R>&, const star_level<T, R>&,                 \
                                               const coarsening_modes<R>&);                                         \
  template void prolong_correction_device<T, R>(const view_accessor<const T, R>&, const view_accessor<T, R>&,       \
                                                const star_level<T, R>&, const coarsening_modes<R>&);               \
  template void coarse_cg_device<T, R>(const view_accessor<T, R>&, const view_accessor<const T, R>&,                \
                                       const view_accessor<T, R>&, const view_accessor<T, R>&,                      \
                                       const view_accessor<T, R>&, const star_level<T, R>&, double, int, bool);
TESSERA_MG_KERNELS_INSTANTIATE(float, 2)
TESSERA_MG_KERNELS_INSTANTIATE(float, 3)
TESSERA_MG_KERNELS_INSTANTIATE(double, 2)
TESSERA_MG_KERNELS_INSTANTIATE(double, 3)

}  // namespace tessera::cuda
