// The tile variants of variants.hpp for double.
#include <tessera/cuda/kernels/pipelined.cuh>
#include <tessera/cuda/kernels/shared_streaming.cuh>
#include <tessera/cuda/kernels/vector_streaming.cuh>

#include "variants.hpp"

TESSERA_BENCH_VARIANTS(double)
