#pragma once
// Deprecated (kept for one release): the strategy lives in tessera/cuda/strategies/vector_streaming.hpp.
// Include that and tessera/cuda/kernel_entry.cuh before TESSERA_CUDA_INSTANTIATE.
#include "tessera/cuda/kernel_entry.cuh"
#include "tessera/cuda/strategies/vector_streaming.hpp"
