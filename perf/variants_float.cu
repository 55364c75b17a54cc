// The tile variants of variants.hpp for float.
#include <tessera/cuda/kernel_entry.cuh>
#include <tessera/cuda/strategies.hpp>

#include "variants.hpp"

TESSERA_BENCH_VARIANTS(float)
