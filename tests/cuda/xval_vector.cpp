// Kokkos cross-validation of cuda::pipelined, cuda::vector_streaming (cuda_cross_validation.hpp).
#include "cuda_cross_validation.hpp"

TESSERA_FOR_EACH_SHAPE(TESSERA_CUDA_XVAL, tessera::cuda::pipelined<>, float)
TESSERA_FOR_EACH_SHAPE(TESSERA_CUDA_XVAL, tessera::cuda::pipelined<>, double)
TESSERA_FOR_EACH_SHAPE(TESSERA_CUDA_XVAL, tessera::cuda::vector_streaming<>, float)
TESSERA_FOR_EACH_SHAPE(TESSERA_CUDA_XVAL, tessera::cuda::vector_streaming<>, double)
