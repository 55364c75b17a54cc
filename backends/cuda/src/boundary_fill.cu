// Device ghost fills: per face, a 1D grid over the cells of the face's ghost slab.
#include <string>

#include "tessera/cuda/boundary_fill.hpp"
#include "tessera/cuda/runtime.hpp"

namespace tessera::cuda {
namespace {

template <class T, int Rank>
__global__ void fill_face(view_accessor<T, Rank> a, int d, boundary b, array<index_t, 3> lo,
                          array<index_t, 3> ext, index_t cells) {
  const index_t t = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= cells) return;
  index_t rest = t, off = 0, src = 0;
  for (int e = Rank - 1; e >= 0; --e) {
    const index_t i = lo[e] + rest % ext[e];
    rest /= ext[e];
    off += i * a.stride[e];
    src += (e == d ? tessera::detail::ghost_source(i, a.n[e], b.kind) : i) * a.stride[e];
  }
  a.origin[off] = b.kind == boundary_kind::dirichlet ? static_cast<T>(b.value) : a.origin[src];
}

}  // namespace

template <class T, int Rank>
void fill_ghosts_device(const view_accessor<T, Rank>& a, const boundary_conditions<Rank>& bc,
                        cudaStream_t stream) {
  const index_t g = a.ghost;
  for (int d = 0; d < Rank; ++d)
    for (int side = 0; side < 2; ++side) {
      // the same slabs, in the same order, as the host fill (core/boundary.hpp)
      index_t l[3] = {0, 0, 0}, h[3] = {1, 1, 1};
      tessera::detail::ghost_slab<Rank>(a.n, g, d, side, l, h);
      array<index_t, 3> lo{}, ext{};
      index_t cells = 1;
      for (int e = 0; e < Rank; ++e) {
        lo[e] = l[e];
        ext[e] = h[e] - l[e];
        cells *= ext[e];
      }
      if (cells == 0) continue;
      const int block = 256;
      const auto grid = static_cast<unsigned>((cells + block - 1) / block);
      fill_face<T, Rank><<<grid, block, 0, stream>>>(a, d, bc.faces[2 * d + side], lo, ext, cells);
      detail::check_launch("fill_face (ghost fill of view '" + std::string(a.label) + "')", "fill_ghosts");
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
