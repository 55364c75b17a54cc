#pragma once
// The umbrella header: everything a user of tessera needs. The backends this build has
// come from tessera/backends.hpp, which CMake writes (cmake/backends.hpp.in).
#include "tessera/core/boundary.hpp"
#include "tessera/core/deep_copy.hpp"
#include "tessera/core/extents.hpp"
#include "tessera/core/fields.hpp"
#include "tessera/core/fd.hpp"
#include "tessera/core/layout.hpp"
#include "tessera/core/point_function.hpp"
#include "tessera/core/shape.hpp"
#include "tessera/core/stencil.hpp"
#include "tessera/core/stencil_function.hpp"
#include "tessera/core/view.hpp"
#include "tessera/backends.hpp"  // generated: every backend of this build
#include "tessera/algorithms/apply.hpp"
#include "tessera/algorithms/apply_point_function.hpp"
#include "tessera/algorithms/automatic.hpp"
#include "tessera/algorithms/boundary_fill.hpp"
#include "tessera/algorithms/iterate.hpp"
#include "tessera/algorithms/reduce.hpp"
#include "tessera/algorithms/source_term.hpp"
#include "tessera/algorithms/point_functions.hpp"
#include "tessera/algorithms/poisson.hpp"
#include "tessera/algorithms/wave.hpp"
#include "tessera/algorithms/compare.hpp"
// The Kokkos reference (kokkos::mdrange) and validate: wherever Kokkos is reachable, i.e.
// for programs that link tessera::kokkos. A program that links tessera::tessera alone
// sweeps without Kokkos.
#if __has_include(<Kokkos_Core.hpp>)
#include "tessera/algorithms/validate.hpp"
#include "tessera/kokkos/mdrange.hpp"
#include "tessera/kokkos/point_function.hpp"
#endif
