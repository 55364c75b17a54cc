// The shared_streaming tile variants of variants.hpp for double.
#include <tessera/cuda/kernels/shared_streaming.cuh>

#include "variants.hpp"

TESSERA_BENCH_VARIANTS(double)
