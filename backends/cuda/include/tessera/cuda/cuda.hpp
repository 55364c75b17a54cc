#pragma once
// The CUDA backend: its memory space and the operations algorithms reach on it
// (boundary fills, comparison, reductions, element-wise updates, synchronize), policies,
// planning, dispatch, fused time steps (kernels are compiled in tessera_cuda).
#include "tessera/cuda/automatic.hpp"
#include "tessera/cuda/boundary_fill.hpp"
#include "tessera/cuda/compare.hpp"
#include "tessera/cuda/dispatch.hpp"
#include "tessera/cuda/elementwise.hpp"
#include "tessera/cuda/grid_transfer.hpp"
#include "tessera/cuda/multigrid_kernels.hpp"
#include "tessera/cuda/memory_space.hpp"
#include "tessera/cuda/plan.hpp"
#include "tessera/cuda/point_function_sweep.hpp"
#include "tessera/cuda/policy.hpp"
#include "tessera/cuda/reduce.hpp"
#include "tessera/cuda/runtime.hpp"
#include "tessera/cuda/step_graph.hpp"
#include "tessera/cuda/sweep_instances.hpp"
#include "tessera/cuda/sweep_steps.hpp"
#include "tessera/cuda/tuning.hpp"
