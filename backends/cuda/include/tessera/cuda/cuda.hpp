#pragma once
// The CUDA backend: policies, planning, dispatch (kernels are compiled in tessera_cuda).
#include "tessera/cuda/automatic.hpp"
#include "tessera/cuda/compare.hpp"
#include "tessera/cuda/dispatch.hpp"
#include "tessera/cuda/plan.hpp"
#include "tessera/cuda/policy.hpp"
#include "tessera/cuda/runtime.hpp"
#include "tessera/cuda/sweep_instances.hpp"
#include "tessera/cuda/tuning.hpp"
