// out += alpha * f over the interior, a grid-stride loop over interior points.
#include <string>

#include "tessera/cuda/detail/elementwise.hpp"
#include "tessera/cuda/detail/interior_pair.hpp"
#include "tessera/cuda/runtime.hpp"

namespace tessera::cuda {
namespace {
template <class T, int Rank>
__global__ void add_scaled_kernel(view_accessor<T, Rank> out, T alpha, view_accessor<const T, Rank> f, index_t points) {
  for (index_t i = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < points;
       i += static_cast<index_t>(gridDim.x) * blockDim.x) {
    index_t oo, of;
    detail::interior_offsets(i, out, f, oo, of);
    out.origin[oo] += alpha * f.origin[of];
  }
}
}  // namespace

template <class T, int Rank>
void add_scaled_device(const view_accessor<T, Rank>& out, T alpha, const view_accessor<const T, Rank>& f,
                       cudaStream_t stream) {
  index_t points = 1;
  for (int d = 0; d < Rank; ++d) points *= out.n[d];
  if (points == 0) return;
  const index_t blocks = (points + 255) / 256;
  add_scaled_kernel<T, Rank><<<static_cast<unsigned>(blocks < 65536 ? blocks : 65536), 256, 0, stream>>>(out, alpha, f, points);
  detail::check_launch("add_scaled_kernel (view '" + std::string(out.label) + "')", "source term");
}

#define TESSERA_ADD_SCALED_INSTANTIATE(T, R)                                                        \
  template void add_scaled_device<T, R>(const view_accessor<T, R>&, T, const view_accessor<const T, R>&, \
                                        cudaStream_t);
TESSERA_ADD_SCALED_INSTANTIATE(float, 1)
TESSERA_ADD_SCALED_INSTANTIATE(float, 2)
TESSERA_ADD_SCALED_INSTANTIATE(float, 3)
TESSERA_ADD_SCALED_INSTANTIATE(double, 1)
TESSERA_ADD_SCALED_INSTANTIATE(double, 2)
TESSERA_ADD_SCALED_INSTANTIATE(double, 3)

}  // namespace tessera::cuda
