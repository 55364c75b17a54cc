#pragma once
// Ghost-layer fills on the device (see core/boundary.hpp for the rules). One kernel
// launch per face, one thread per ghost cell of the face's slab, faces in the same
// order as the host fill so edges and corners agree.
#include <cuda_runtime_api.h>

#include "tessera/core/accessor.hpp"
#include "tessera/core/boundary.hpp"

namespace tessera::cuda {

/// Defined in backends/cuda/src/boundary_fill.cu for float/double, rank 1-3.
template <class T, int Rank>
void fill_ghosts_device(const view_accessor<T, Rank>& a, const boundary_conditions<Rank>& bc,
                        cudaStream_t stream = nullptr);

}  // namespace tessera::cuda
