#pragma once
// Grid transfers on the device (core/grid_transfer.hpp holds the weights): the
// customisation points tessera::restrict_residual and tessera::prolong_add reach for
// CudaSpace views. Compiled in backends/cuda/src/grid_transfer.cu for float/double, rank 1-3.
#include <cuda_runtime_api.h>

#include <type_traits>

#include "tessera/core/detail/accessor.hpp"
#include "tessera/core/grid_transfer.hpp"
#include "tessera/cuda/memory_space.hpp"

namespace tessera::cuda {

template <class T, int Rank>
void restrict_device(const view_accessor<const T, Rank>& fine, const view_accessor<T, Rank>& coarse,
                     const coarsening_modes<Rank>& modes, bool adjoint, cudaStream_t stream = nullptr);
template <class T, int Rank>
void prolong_add_device(const view_accessor<const T, Rank>& coarse, const view_accessor<T, Rank>& fine,
                        const coarsening_modes<Rank>& modes, cudaStream_t stream = nullptr);

template <class T, int Rank>
void extrapolate_face_device(const view_accessor<T, Rank>& a, int axis, int side, T factor,
                             cudaStream_t stream = nullptr);

template <class T, int Rank>
void extrapolate_face_in(CudaSpace, const view_accessor<T, Rank>& a, int axis, int side, T factor) {
  extrapolate_face_device<T, Rank>(a, axis, side, factor);
}

template <class T, int Rank>
void restrict_in(CudaSpace, const view_accessor<const T, Rank>& fine, const view_accessor<T, Rank>& coarse,
                 const std::type_identity_t<coarsening_modes<Rank>>& modes, bool adjoint) {
  restrict_device<T, Rank>(fine, coarse, modes, adjoint);
}
template <class T, int Rank>
void prolong_add_in(CudaSpace, const view_accessor<const T, Rank>& coarse, const view_accessor<T, Rank>& fine,
                    const std::type_identity_t<coarsening_modes<Rank>>& modes) {
  prolong_add_device<T, Rank>(coarse, fine, modes);
}

}  // namespace tessera::cuda
