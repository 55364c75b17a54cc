// Kokkos cross-validation of cuda::streaming, cuda::shared_streaming (cuda_cross_validation.hpp).
#include "cuda_cross_validation.hpp"

TESSERA_FOR_EACH_SHAPE(TESSERA_CUDA_XVAL, tessera::cuda::streaming<>, float)
TESSERA_FOR_EACH_SHAPE(TESSERA_CUDA_XVAL, tessera::cuda::streaming<>, double)
TESSERA_FOR_EACH_SHAPE(TESSERA_CUDA_XVAL, tessera::cuda::shared_streaming<>, float)
TESSERA_FOR_EACH_SHAPE(TESSERA_CUDA_XVAL, tessera::cuda::shared_streaming<>, double)
