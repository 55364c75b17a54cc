// Device ghost fills: every face of every axis in one launch.
//
// The host fills the slabs of core/boundary.hpp (ghost_slab) axis by axis, so edges and
// corners take the later axis' rule. The device computes that result directly, which
// frees it of the order: a ghost cell's last writer is the fill of its highest axis whose
// coordinate is a ghost (none where that face is fixed: the cell keeps the caller's
// value, and a cell mapped onto it reads that), and that fill writes the face's Dirichlet value (on the wall), or
// takes the cell whose coordinate on that axis is mapped into the interior (ghost_source),
// whose own value the earlier axes gave it: copied, or reflected about a Dirichlet wall
// (2v - u). So, from the highest axis down: a wall coordinate gives the value, any other
// ghost coordinate is mapped into the interior (a reflection noted), and when no ghost
// coordinate is left the interior cell is read; the noted reflections then apply from the
// lowest axis up, the order and rounding of the host's fills. Every cell reads only
// interior cells, which no fill writes: the slabs of all faces run at once, with no race,
// and the result equals the host's cell by cell (tests/cuda: fills against host fills).
//
// Why one launch: on medium grids a periodic step spent much of its time in the three
// launches of a per-axis fill, each mostly launch and the wait for the grid before it, not
// bytes (measured: perf/RESULTS.md).
//
// Layout of the launch: blockIdx.z picks the face (2d + side). A thread owns one cell of
// the slab's fastest axis other than d (so the writes of a warp are consecutive in memory
// wherever the slab has rows), blockIdx.y walks the remaining axis, and the thread writes
// the g layers along d.
#include <algorithm>
#include <cstdint>
#include <string>

#include "tessera/cuda/detail/boundary_fill.hpp"
#include "tessera/cuda/kernels/common.cuh"
#include "tessera/cuda/runtime.hpp"

namespace tessera::cuda {
namespace {

/// The slab of axis d on both faces, as the kernel walks it: the axis threads run along
/// (`fast`) and the one blockIdx.y walks (`slow`) as axis (-1: none), first index and
/// extent (an axis the rank lacks: -1, 0, 1).
struct axis_slab {
  int fast = -1, slow = -1;
  index_t fast_lo = 0, fast_n = 0;
  index_t slow_lo = 0, slow_n = 1;
};

template <int Rank>
struct face_slabs {
  axis_slab axis[Rank];
  // The last axis' faces: whether each side's ghosts lie in one 32-byte sector of every row
  // whose other cells are the row's own padding, so that a thread stores the sector whole.
  // A partly written sector costs the memory a read before its write: the x faces, a sector
  // a row, took most of a fill (512^3 fp32, two layers: 73 us, 44 us whole; perf/log).
  bool whole_sector[2] = {false, false};
};

/// Elements of T in a 32-byte sector.
template <class T>
inline constexpr int sector_cells = 32 / static_cast<int>(sizeof(T));

// The parameters are __grid_constant__: the kernel indexes them by the block's face (a value
// known only at run time), which would otherwise copy them to every thread's local memory
// (a first version without it took 0.30 ms for a 512^3 fill against 0.10 ms for the three
// launches it replaced). Every loop over axes is unrolled, so c[] stays in registers.
template <class T, int Rank>
__global__ void fill_faces(const __grid_constant__ view_accessor<T, Rank> a,
                           const __grid_constant__ face_slabs<Rank> slabs,
                           const __grid_constant__ boundary_conditions<Rank> bc) {
  detail::begin_after_previous_grid();  // first: the sweep before may still run
  const int d = static_cast<int>(blockIdx.z) / 2, side = static_cast<int>(blockIdx.z) % 2;
  if (bc.faces[blockIdx.z].kind == boundary_kind::fixed) return;  // its cells keep the caller's values
  const axis_slab& s = slabs.axis[d];
  const index_t f = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (f >= s.fast_n) return;
  const index_t g = a.ghost;
  // The value the fill gives ghost cell c: the last writer's rule (see the top of the file).
  auto value_of = [&](index_t(&c)[Rank]) {
    bool fixed = false;
    bool held = false;  // the source lies in a fixed face's ghosts: read as it is
    T value{};
    double wall[Rank];     // the wall value of each axis whose coordinate was reflected
    bool reflected[Rank];  // (a Dirichlet face, beyond the wall)
#pragma unroll
    for (int e = Rank - 1; e >= 0; --e) {  // the highest ghost axis wrote last
      reflected[e] = false;
      if (fixed || held || (c[e] >= 0 && c[e] < a.n[e])) continue;
      const boundary& b = bc.faces[2 * e + (c[e] < 0 ? 0 : 1)];
      if (b.kind == boundary_kind::fixed) {  // a lower axis' fixed face: no fill wrote it
        held = true;
      } else if (b.kind == boundary_kind::dirichlet && tessera::detail::on_wall(c[e], a.n[e])) {
        fixed = true, value = static_cast<T>(b.value);
      } else {
        reflected[e] = b.kind == boundary_kind::dirichlet;
        wall[e] = b.value;
        c[e] = tessera::detail::ghost_source(c[e], a.n[e], b.kind);
      }
    }
    if (!fixed) {
      index_t from = 0;
#pragma unroll
      for (int e = 0; e < Rank; ++e) from += c[e] * a.stride[e];
      value = a.origin[from];
    }
#pragma unroll
    for (int e = 0; e < Rank; ++e)
      if (reflected[e]) value = tessera::detail::reflect_about_wall(wall[e], value);
    return value;
  };
  auto coordinates = [&](index_t j, index_t k, index_t(&c)[Rank]) {
#pragma unroll
    for (int e = 0; e < Rank; ++e)
      c[e] = e == d ? (side == 0 ? k - g : a.n[e] + k) : e == s.fast ? s.fast_lo + f : e == s.slow ? s.slow_lo + j : 0;
  };
  auto offset_of = [&](const index_t(&c)[Rank]) {
    index_t cell = 0;
#pragma unroll
    for (int e = 0; e < Rank; ++e) cell += c[e] * a.stride[e];
    return cell;
  };
  constexpr int S = sector_cells<T>;
  static_assert(S == 8 || S == 4, "tessera::fill_ghosts on the device: float or double");
  if (d == Rank - 1 && slabs.whole_sector[side]) {
    // the row's g ghosts and the padding beside them, one sector, in two 16-byte stores
    // (the padding takes the outer ghost's value: no one reads it)
    for (index_t j = blockIdx.y; j < s.slow_n; j += gridDim.y) {
      // g is 1 or 2: the ghost beside the interior (x = -1 or n) and the outer one
      index_t c[Rank];
      coordinates(j, side == 0 ? g - 1 : 0, c);
      const T inner = value_of(c);
      coordinates(j, side == 0 ? 0 : g - 1, c);
      const T outer = g == 1 ? inner : value_of(c);
      coordinates(j, 0, c);
#pragma unroll
      for (int e = 0; e < Rank; ++e)  // the sector's first cell (an unrolled loop: c stays in registers)
        if (e == d) c[e] = side == 0 ? -S : a.n[e];
      T* const to = a.origin + offset_of(c);
      // the sector: inner at x = -1 (its last cell) or n (its first), outer elsewhere
      if constexpr (sizeof(T) == 4) {
        float4* const v = reinterpret_cast<float4*>(to);
        v[0] = side == 0 ? make_float4(outer, outer, outer, outer) : make_float4(inner, outer, outer, outer);
        v[1] = side == 0 ? make_float4(outer, outer, outer, inner) : make_float4(outer, outer, outer, outer);
      } else {
        double2* const v = reinterpret_cast<double2*>(to);
        v[0] = side == 0 ? make_double2(outer, outer) : make_double2(inner, outer);
        v[1] = side == 0 ? make_double2(outer, inner) : make_double2(outer, outer);
      }
    }
    return;
  }
  for (index_t j = blockIdx.y; j < s.slow_n; j += gridDim.y) {
    for (index_t k = 0; k < g; ++k) {
      index_t c[Rank];
      coordinates(j, k, c);
      const index_t cell = offset_of(c);
      a.origin[cell] = value_of(c);
    }
  }
}

}  // namespace

template <class T, int Rank>
void fill_ghosts_device(const view_accessor<T, Rank>& a, const boundary_conditions<Rank>& bc,
                        cudaStream_t stream) {
  const index_t g = a.ghost;
  if (g == 0) return;
  face_slabs<Rank> slabs;
  index_t most_fast = 0, most_slow = 0;
  for (int d = 0; d < Rank; ++d) {
    // the slab of the low face; the high face differs only along d (core/boundary.hpp)
    index_t l[3] = {0, 0, 0}, h[3] = {1, 1, 1};
    tessera::detail::ghost_slab<Rank>(a.n, g, d, 0, l, h);
    axis_slab& s = slabs.axis[d];
    int others = 0;  // the fastest other axis, then the next one
    for (int e = Rank - 1; e >= 0; --e) {
      if (e == d) continue;
      if (others++ == 0) s.fast = e, s.fast_lo = l[e], s.fast_n = h[e] - l[e];
      else s.slow = e, s.slow_lo = l[e], s.slow_n = h[e] - l[e];
    }
    if (Rank == 1) s.fast_n = 1;  // the g cells along d are the whole slab
    if (s.fast_n <= 0 || s.slow_n <= 0) s.fast_n = 0, s.slow_n = 0;  // an empty slab: its blocks return
    most_fast = std::max(most_fast, s.fast_n);
    most_slow = std::max(most_slow, s.slow_n);
  }
  if (most_fast == 0) return;
  // The last axis' faces in whole sectors: rows and interiors 32-byte aligned, one or two
  // ghost layers (the reach of the built-in stencils up to radius 2), and the sector's
  // other cells the row's own padding.
  if constexpr (Rank >= 2) {
    constexpr index_t S = sector_cells<T>;
    const index_t nx = a.n[Rank - 1];
    const bool aligned = reinterpret_cast<std::uintptr_t>(a.origin) % 32 == 0 &&
                         (a.stride[Rank - 2] * static_cast<index_t>(sizeof(T))) % 32 == 0 && g <= 2;
    slabs.whole_sector[0] = aligned && a.row_slack[0] + g >= S;
    slabs.whole_sector[1] = aligned && nx % S == 0 && a.row_slack[1] + g >= S;
  }
  const int block = 256;
  const dim3 grid(static_cast<unsigned>((most_fast + block - 1) / block),
                  static_cast<unsigned>(std::min<index_t>(std::max<index_t>(most_slow, 1), 65535)),
                  static_cast<unsigned>(2 * Rank));
  detail::launch_after_previous(&fill_faces<T, Rank>,
                                "fill_faces (ghost fill of view '" + std::string(a.label) + "') [fill_ghosts]", grid,
                                dim3(block), 0, stream, a, slabs, bc);
}

#define TESSERA_FILL_INSTANTIATE(T, R) \
  template void fill_ghosts_device<T, R>(const view_accessor<T, R>&, const boundary_conditions<R>&, cudaStream_t);
TESSERA_FILL_INSTANTIATE(float, 1)
TESSERA_FILL_INSTANTIATE(float, 2)
TESSERA_FILL_INSTANTIATE(float, 3)
TESSERA_FILL_INSTANTIATE(double, 1)
TESSERA_FILL_INSTANTIATE(double, 2)
TESSERA_FILL_INSTANTIATE(double, 3)

}  // namespace tessera::cuda
