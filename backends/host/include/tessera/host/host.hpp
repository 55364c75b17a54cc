#pragma once
// The host backend, whole: its policies (host::serial, host::parallel) and every
// customisation point it defines for HostSpace views (sweeps, point functions, fused steps,
// ghost fills, comparisons, reductions, element-wise sweeps, grid transfers, automatic's
// choice). tessera/backends.hpp includes it; algorithms/ never does: it calls the
// customisation points, which argument-dependent lookup finds here.
#include "tessera/host/detail/automatic.hpp"
#include "tessera/host/detail/boundary_fill.hpp"
#include "tessera/host/detail/compare.hpp"
#include "tessera/host/detail/elementwise.hpp"
#include "tessera/host/detail/grid_transfer.hpp"
#include "tessera/host/parallel.hpp"
#include "tessera/host/detail/point_function_sweep.hpp"
#include "tessera/host/detail/reduce.hpp"
#include "tessera/host/serial.hpp"
