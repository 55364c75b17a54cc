// Kokkos cross-validation of cuda::automatic (cuda_cross_validation.hpp).
#include "cuda_cross_validation.hpp"

TESSERA_FOR_EACH_SHAPE(TESSERA_CUDA_XVAL, tessera::cuda::automatic, float)
TESSERA_FOR_EACH_SHAPE(TESSERA_CUDA_XVAL, tessera::cuda::automatic, double)
