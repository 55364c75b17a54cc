#pragma once
// The umbrella header: everything a user of tessera needs.
#include "tessera/core/boundary.hpp"
#include "tessera/core/deep_copy.hpp"
#include "tessera/core/extents.hpp"
#include "tessera/core/fd.hpp"
#include "tessera/core/layout.hpp"
#include "tessera/core/shape.hpp"
#include "tessera/core/stencil.hpp"
#include "tessera/core/view.hpp"
#include "tessera/host/parallel.hpp"
#include "tessera/host/serial.hpp"
#include "tessera/kokkos/mdrange.hpp"
#if TESSERA_ENABLE_CUDA
#include "tessera/cuda/cuda.hpp"
#endif
#include "tessera/algorithms/apply.hpp"
#include "tessera/algorithms/automatic.hpp"
#include "tessera/algorithms/boundary_fill.hpp"
#include "tessera/algorithms/iterate.hpp"
#include "tessera/algorithms/reduce.hpp"
#include "tessera/algorithms/compare.hpp"
#include "tessera/algorithms/validate.hpp"
