#pragma once
// The CUDA backend: its memory space and the operations algorithms reach on it
// (boundary fills, comparison, reductions, element-wise updates, synchronize), policies,
// planning, dispatch, fused time steps (kernels are compiled in tessera_cuda).
#include "tessera/cuda/automatic.hpp"
#include "tessera/cuda/detail/boundary_fill.hpp"
#include "tessera/cuda/detail/compare.hpp"
#include "tessera/cuda/detail/dispatch.hpp"
#include "tessera/cuda/detail/elementwise.hpp"
#include "tessera/cuda/detail/grid_transfer.hpp"
#include "tessera/cuda/detail/multigrid_kernels.hpp"
#include "tessera/cuda/memory_space.hpp"
#include "tessera/cuda/plan.hpp"
#include "tessera/cuda/detail/point_function_sweep.hpp"
#include "tessera/cuda/policy.hpp"
#include "tessera/cuda/detail/reduce.hpp"
#include "tessera/cuda/runtime.hpp"
#include "tessera/cuda/detail/step_graph.hpp"
#include "tessera/cuda/detail/sweep_instances.hpp"
#include "tessera/cuda/detail/sweep_steps.hpp"
#include "tessera/cuda/tuning.hpp"
