// Device ghost fills: one launch per axis, both faces of the axis at once.
//
// The cells a fill writes are the slabs of core/boundary.hpp (ghost_slab), filled axis by
// axis so edges and corners take the later axis' rule, as on the host. Within an axis the
// two faces are independent (a copying fill reads the interior layers [0, g) or [n - g, n)
// along the axis, never the other face's ghosts: check_boundary_conditions refuses g > n),
// so one launch writes both. A thread owns one cell of the slab's fastest axis other than
// the filled one (so the writes of a warp are consecutive in memory wherever the slab has
// rows), blockIdx.y walks the remaining axis, blockIdx.z picks the face, and the thread
// writes the g layers along the filled axis: no integer division per cell, and a face of
// the fastest axis (one cell per row) costs one partial line per row, no more.
#include <string>

#include "tessera/cuda/boundary_fill.hpp"
#include "tessera/cuda/kernels/common.cuh"
#include "tessera/cuda/runtime.hpp"

namespace tessera::cuda {
namespace {

/// The slab of axis d on both faces, as the kernel walks it: the axis threads run along
/// (`fast`) and the one blockIdx.y walks (`slow`) as first index, extent and stride (an
/// axis the rank lacks: 0, 1, 0), and the ghost layers along d.
struct axis_slab {
  int d = 0;
  index_t fast_lo = 0, fast_n = 1, fast_stride = 0;
  index_t slow_lo = 0, slow_n = 1, slow_stride = 0;
  index_t g = 0;
};

template <class T, int Rank>
__global__ void fill_axis(view_accessor<T, Rank> a, axis_slab s, boundary low, boundary high) {
  detail::begin_after_previous_grid();  // first: the sweep or the axis before may still run
  const index_t f = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (f >= s.fast_n) return;
  const int side = static_cast<int>(blockIdx.z);
  const boundary b = side == 0 ? low : high;
  const index_t n = a.n[s.d], sd = a.stride[s.d];
  const index_t first = side == 0 ? -s.g : n;  // first ghost layer along d on this face
  const index_t fast_off = (s.fast_lo + f) * s.fast_stride;
  for (index_t j = blockIdx.y; j < s.slow_n; j += gridDim.y) {
    const index_t base = fast_off + (s.slow_lo + j) * s.slow_stride;
    for (index_t k = 0; k < s.g; ++k) {
      const index_t i = first + k;
      T* cell = a.origin + base + i * sd;
      if (b.kind == boundary_kind::dirichlet)
        *cell = static_cast<T>(b.value);
      else
        *cell = a.origin[base + tessera::detail::ghost_source(i, n, b.kind) * sd];
    }
  }
}

}  // namespace

template <class T, int Rank>
void fill_ghosts_device(const view_accessor<T, Rank>& a, const boundary_conditions<Rank>& bc,
                        cudaStream_t stream) {
  const index_t g = a.ghost;
  if (g == 0) return;
  for (int d = 0; d < Rank; ++d) {
    // the slab of the low face; the high face differs only along d (core/boundary.hpp)
    index_t l[3] = {0, 0, 0}, h[3] = {1, 1, 1};
    tessera::detail::ghost_slab<Rank>(a.n, g, d, 0, l, h);
    axis_slab s;
    s.d = d;
    s.g = g;
    int others = 0;  // the fastest other axis, then the next one
    for (int e = Rank - 1; e >= 0; --e) {
      if (e == d) continue;
      if (others++ == 0) s.fast_lo = l[e], s.fast_n = h[e] - l[e], s.fast_stride = a.stride[e];
      else s.slow_lo = l[e], s.slow_n = h[e] - l[e], s.slow_stride = a.stride[e];
    }
    if (s.fast_n <= 0 || s.slow_n <= 0) continue;
    const int block = 256;
    const dim3 grid(static_cast<unsigned>((s.fast_n + block - 1) / block),
                    static_cast<unsigned>(s.slow_n < 65535 ? s.slow_n : 65535), 2);
    detail::launch_after_previous(&fill_axis<T, Rank>,
                                  "fill_axis (ghost fill of view '" + std::string(a.label) + "') [fill_ghosts]", grid,
                                  dim3(block), 0, stream, a, s, bc.faces[2 * d], bc.faces[2 * d + 1]);
  }
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
