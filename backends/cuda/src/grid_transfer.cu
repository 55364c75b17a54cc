// Full-weighting restriction and linear prolongation on the device: a grid-stride loop over
// the points written (coarse points for restriction, fine points for prolongation), each
// computed by core/grid_transfer.hpp's tap functions, the same the host loops use.
#include <string>

#include "tessera/cuda/detail/grid_transfer.hpp"
#include "tessera/cuda/runtime.hpp"

namespace tessera::cuda {
namespace {
template <int Rank>
__device__ array<index_t, Rank> point_of(index_t i, const array<index_t, Rank>& n, index_t& off,
                                         const array<index_t, Rank>& stride) {
  array<index_t, Rank> p{};
  off = 0;
  for (int d = Rank - 1; d >= 0; --d) {
    p[d] = i % n[d];
    i /= n[d];
    off += p[d] * stride[d];
  }
  return p;
}

template <class T, int Rank>
__global__ void restrict_kernel(view_accessor<const T, Rank> fine, view_accessor<T, Rank> coarse,
                                coarsening_modes<Rank> modes, bool adjoint, index_t points) {
  for (index_t i = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < points;
       i += static_cast<index_t>(gridDim.x) * blockDim.x) {
    index_t off;
    const auto I = point_of<Rank>(i, coarse.n, off, coarse.stride);
    coarse.origin[off] = tessera::detail::restrict_point<T, Rank>(fine, I, modes, adjoint);
  }
}

template <class T, int Rank>
__global__ void prolong_add_kernel(view_accessor<const T, Rank> coarse, view_accessor<T, Rank> fine,
                                   coarsening_modes<Rank> modes, index_t points) {
  for (index_t i = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < points;
       i += static_cast<index_t>(gridDim.x) * blockDim.x) {
    index_t off;
    const auto p = point_of<Rank>(i, fine.n, off, fine.stride);
    fine.origin[off] += tessera::detail::prolong_point<T, Rank>(coarse, p, modes);
  }
}

template <class T, int Rank>
__global__ void extrapolate_face_kernel(view_accessor<T, Rank> a, int axis, int side, T factor, index_t points) {
  const index_t ghost_at = side ? a.n[axis] : -1, from_at = side ? a.n[axis] - 1 : 0;
  for (index_t i = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < points;
       i += static_cast<index_t>(gridDim.x) * blockDim.x) {
    index_t rest = i, off = 0;
    for (int d = Rank - 1; d >= 0; --d) {
      const index_t span = d == axis ? 1 : a.n[d] + 2 * a.ghost;
      const index_t c = rest % span;
      rest /= span;
      if (d != axis) off += (c - a.ghost) * a.stride[d];
    }
    a.origin[off + ghost_at * a.stride[axis]] = factor * a.origin[off + from_at * a.stride[axis]];
  }
}

template <int Rank>
index_t count(const array<index_t, Rank>& n) {
  index_t points = 1;
  for (int d = 0; d < Rank; ++d) points *= n[d];
  return points;
}
unsigned blocks_for(index_t points) {
  const index_t b = (points + 255) / 256;
  return static_cast<unsigned>(b < 65536 ? b : 65536);
}
}  // namespace

template <class T, int Rank>
void restrict_device(const view_accessor<const T, Rank>& fine, const view_accessor<T, Rank>& coarse,
                     const coarsening_modes<Rank>& modes, bool adjoint, cudaStream_t stream) {
  const index_t points = count<Rank>(coarse.n);
  if (points == 0) return;
  restrict_kernel<T, Rank><<<blocks_for(points), 256, 0, stream>>>(fine, coarse, modes, adjoint, points);
  detail::check_launch("restrict_kernel (view '" + std::string(coarse.label) + "')", "multigrid restriction");
}

template <class T, int Rank>
void prolong_add_device(const view_accessor<const T, Rank>& coarse, const view_accessor<T, Rank>& fine,
                        const coarsening_modes<Rank>& modes, cudaStream_t stream) {
  const index_t points = count<Rank>(fine.n);
  if (points == 0) return;
  prolong_add_kernel<T, Rank><<<blocks_for(points), 256, 0, stream>>>(coarse, fine, modes, points);
  detail::check_launch("prolong_add_kernel (view '" + std::string(fine.label) + "')", "multigrid prolongation");
}

template <class T, int Rank>
void extrapolate_face_device(const view_accessor<T, Rank>& a, int axis, int side, T factor, cudaStream_t stream) {
  index_t points = 1;
  for (int d = 0; d < Rank; ++d) points *= d == axis ? 1 : a.n[d] + 2 * a.ghost;
  if (points == 0) return;
  extrapolate_face_kernel<T, Rank><<<blocks_for(points), 256, 0, stream>>>(a, axis, side, factor, points);
  detail::check_launch("extrapolate_face_kernel (view '" + std::string(a.label) + "')", "multigrid wall");
}

#define TESSERA_TRANSFER_INSTANTIATE(T, R)                                                                   \
  template void restrict_device<T, R>(const view_accessor<const T, R>&, const view_accessor<T, R>&,         \
                                      const coarsening_modes<R>&, bool, cudaStream_t);                             \
  template void prolong_add_device<T, R>(const view_accessor<const T, R>&, const view_accessor<T, R>&,      \
                                         const coarsening_modes<R>&, cudaStream_t);                  \
  template void extrapolate_face_device<T, R>(const view_accessor<T, R>&, int, int, T, cudaStream_t);
TESSERA_TRANSFER_INSTANTIATE(float, 1)
TESSERA_TRANSFER_INSTANTIATE(float, 2)
TESSERA_TRANSFER_INSTANTIATE(float, 3)
TESSERA_TRANSFER_INSTANTIATE(double, 1)
TESSERA_TRANSFER_INSTANTIATE(double, 2)
TESSERA_TRANSFER_INSTANTIATE(double, 3)

}  // namespace tessera::cuda
