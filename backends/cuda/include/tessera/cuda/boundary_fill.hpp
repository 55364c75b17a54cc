#pragma once
// Ghost-layer fills on the device (see core/boundary.hpp for the rules). One kernel
// launch per face, one thread per ghost cell of the face's slab, faces in the same
// order as the host fill so edges and corners agree.
#include <cuda_runtime_api.h>

#include "tessera/core/accessor.hpp"
#include "tessera/core/boundary.hpp"
#include "tessera/cuda/memory_space.hpp"

namespace tessera::cuda {

/// Defined in backends/cuda/src/boundary_fill.cu for float/double, rank 1-3.
template <class T, int Rank>
void fill_ghosts_device(const view_accessor<T, Rank>& a, const boundary_conditions<Rank>& bc,
                        cudaStream_t stream = nullptr);

/// The customisation point tessera::fill_ghosts reaches for CudaSpace views (on `stream`
/// where one is passed: iterate records fills in its step graphs).
template <class T, int Rank>
void fill_ghosts_in(CudaSpace, const view_accessor<T, Rank>& a, const boundary_conditions<Rank>& bc,
                    cudaStream_t stream = nullptr) {
  fill_ghosts_device(a, bc, stream);
}

}  // namespace tessera::cuda
