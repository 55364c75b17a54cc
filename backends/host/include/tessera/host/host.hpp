#pragma once
// The host backend, whole: its policies (host::serial, host::parallel) and every
// customisation point it defines for HostSpace views (sweeps, point functions, fused steps,
// ghost fills, comparisons, reductions, element-wise sweeps, grid transfers, automatic's
// choice). tessera/backends.hpp includes it; algorithms/ never does: it calls the
// customisation points, which argument-dependent lookup finds here.
#include "tessera/host/automatic.hpp"
#include "tessera/host/boundary_fill.hpp"
#include "tessera/host/compare.hpp"
#include "tessera/host/elementwise.hpp"
#include "tessera/host/grid_transfer.hpp"
#include "tessera/host/parallel.hpp"
#include "tessera/host/point_function_sweep.hpp"
#include "tessera/host/reduce.hpp"
#include "tessera/host/serial.hpp"
