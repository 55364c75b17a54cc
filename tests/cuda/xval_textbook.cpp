// Kokkos cross-validation of cuda::naive, cuda::tiled, cuda::coarsened, cuda::register_tiled (cuda_cross_validation.hpp).
#include "cuda_cross_validation.hpp"

TESSERA_FOR_EACH_SHAPE(TESSERA_CUDA_XVAL, tessera::cuda::naive<>, float)
TESSERA_FOR_EACH_SHAPE(TESSERA_CUDA_XVAL, tessera::cuda::naive<>, double)
TESSERA_FOR_EACH_SHAPE(TESSERA_CUDA_XVAL, tessera::cuda::tiled<>, float)
TESSERA_FOR_EACH_SHAPE(TESSERA_CUDA_XVAL, tessera::cuda::tiled<>, double)
TESSERA_FOR_EACH_SHAPE(TESSERA_CUDA_XVAL, tessera::cuda::coarsened<>, float)
TESSERA_FOR_EACH_SHAPE(TESSERA_CUDA_XVAL, tessera::cuda::coarsened<>, double)
TESSERA_FOR_EACH_SHAPE(TESSERA_CUDA_XVAL, tessera::cuda::register_tiled<>, float)
TESSERA_FOR_EACH_SHAPE(TESSERA_CUDA_XVAL, tessera::cuda::register_tiled<>, double)
