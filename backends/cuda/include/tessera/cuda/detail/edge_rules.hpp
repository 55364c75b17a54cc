#pragma once
// The edge rules of fused passes live in core (tessera/core/detail/edge_rules.hpp), shared by the
// CUDA and host backends; the CUDA backend's names for them.
#include "tessera/core/detail/edge_rules.hpp"

namespace tessera::cuda {
using tessera::beyond_fixed_face;
using tessera::edge_rule;
using tessera::edge_rules;
using tessera::make_edge_rules;
using tessera::map_coordinate;
using tessera::map_reflecting;
using tessera::mirror_symmetric;
using tessera::fuses_across_walls;
using tessera::several_steps_exact;
using tessera::with_reflected_walls;
}  // namespace tessera::cuda
