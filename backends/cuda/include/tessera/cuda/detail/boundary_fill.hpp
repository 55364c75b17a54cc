#pragma once
// Ghost-layer fills on the device (see core/boundary.hpp for the rules): one kernel
// launch for every face, each ghost cell computed from interior cells to the value the
// host's axis-by-axis fill gives it (src/boundary_fill.cu says how).
#include <cuda_runtime_api.h>

#include "tessera/core/detail/accessor.hpp"
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
