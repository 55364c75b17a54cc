// The tile variants of variants.hpp for double.
#include <tessera/cuda/kernel_entry.cuh>
#include <tessera/cuda/strategies.hpp>

#include "variants.hpp"

TESSERA_BENCH_VARIANTS(double)
