#pragma once
// How a fused pass (several time steps in one pass over memory: cuda::temporal_blocking,
// host::parallel's fused steps) sees the field beyond each face. Such a pass computes the
// intermediate time levels on cells outside the interior too, and there is no ghost layer
// in memory to fill between those levels. Instead it reads the level-0 field through a map
// of coordinates under which the boundary conditions hold at every level:
//
//   fixed   the cell keeps its value at every level: Dirichlet faces, and every face of a
//           sweep without boundary conditions (sweeps never write ghost cells). Read as it
//           is in the input's ghost layer (reads beyond it are clamped into it; no interior
//           result depends on them). A Dirichlet face's wall holds its value at every
//           level, but the layers beyond it reflect the interior (core/boundary.hpp): a
//           stencil that reads past the wall may fuse one step only, which reads the
//           layers a fill wrote.
//   wrap    periodic: coordinate i reads interior i mod n. The stencil computed on wrapped
//           data is the wrapped result (translation invariance), so every level stays
//           periodic with no fill.
//   mirror  Neumann: i reads its reflection about the face (repeatedly, on small grids).
//           A level stays mirrored only if the coefficients are symmetric along that axis
//           (mirror_symmetric); otherwise the pass may fuse one step only, which reads
//           exactly the ghosts a fill would write.
//   reflect a Dirichlet face a stencil reads past (radius 2 and more), in the passes that
//           support it (cuda::temporal_blocking in 2D): the wall is fixed; a cell beyond
//           it holds, at every level, the odd reflection 2v - u of its image about the wall
//           (what a fill writes there each step). Level 0 reads it so (map_reflecting's
//           `odd`); the pass computes such cells like interior ones and adds
//           2v (1 - sum of coefficients) a level, which keeps them the reflection when the
//           coefficients are symmetric along every axis with such a face and every
//           Dirichlet face holds the same v (fuses_across_walls: then a cell beyond two
//           walls, the image of an interior cell under two reflections, holds its value).
//
// A cell beyond a fixed face on any axis is fixed at every level. Within the ghost layer
// the map reads what fill_ghosts writes there, corners included (boundary.hpp's order: the
// later axis' rule), so a one-step pass equals fill + sweep for any stencil, and a k-step
// pass equals k of them for the stencils the rules above allow.
#include <optional>
#include <type_traits>

#include "tessera/core/array.hpp"
#include "tessera/core/boundary.hpp"
#include "tessera/core/config.hpp"
#include "tessera/core/stencil.hpp"

namespace tessera {

enum class edge_rule : unsigned char { fixed, wrap, mirror, reflect };

/// The rules of one fused pass on the virtual axes (z, y, x) every backend's passes use (a
/// rank-R grid fills the last R): per axis, the low and the high face's rule, and the
/// input's ghost width (the fixed reads' bound); with reflect faces, their common wall
/// value v and what a cell beyond one adds a level, 2v (1 - sum of coefficients).
struct edge_rules {
  edge_rule face[3][2] = {{edge_rule::fixed, edge_rule::fixed},
                          {edge_rule::fixed, edge_rule::fixed},
                          {edge_rule::fixed, edge_rule::fixed}};
  index_t ghost[3] = {0, 0, 0};
  double wall = 0;
  double reflect_shift = 0;
};

/// The coordinate that cell i (on an axis of n interior cells and g ghost layers)
/// reads, following the low and high faces' rules (fixed, wrap, mirror: map_reflecting
/// adds reflect); sets `fixed` when the cell lies beyond a fixed face. The result lies in
/// [-g, n + g).
TESSERA_HD inline index_t map_coordinate(index_t i, index_t n, index_t g, edge_rule lo, edge_rule hi, bool& fixed) {
  // A mirror maps the cells within n of its face into the interior; further cells reach
  // the other face and take its rule. The loop ends: each pass moves i closer (mirrors)
  // or into range (wrap, fixed).
  for (;;) {
    if (i < 0) {
      if (lo == edge_rule::wrap) return (i % n + n) % n;
      if (lo == edge_rule::fixed) {
        fixed = true;
        return i < -g ? -g : i;
      }
      i = -1 - i;
    } else if (i >= n) {
      if (hi == edge_rule::wrap) return i % n;
      if (hi == edge_rule::fixed) {
        fixed = true;
        return i >= n + g ? n + g - 1 : i;
      }
      i = 2 * n - 1 - i;
    } else {
      return i;
    }
  }
}

/// map_coordinate on virtual axis `axis` (0 = z, 1 = y, 2 = x) under `rules`.
TESSERA_HD inline index_t map_coordinate(index_t i, index_t n, const edge_rules& rules, int axis, bool& fixed) {
  return map_coordinate(i, n, rules.ghost[axis], rules.face[axis][0], rules.face[axis][1], fixed);
}

/// map_coordinate with reflect faces too, for the passes that take them: a cell on a
/// reflect face's wall is fixed (it reads itself), and each reflection about such a wall
/// flips `odd` (the cell then holds 2v - the value read). A function of its own: the
/// fourth rule's tests cost registers in the passes that never meet it, enough to hold
/// the 3D pass to one block an SM instead of two.
TESSERA_HD inline index_t map_reflecting(index_t i, index_t n, index_t g, edge_rule lo, edge_rule hi, bool& fixed,
                                         bool& odd) {
  // as map_coordinate; a reflection moves i closer too, so the loop ends
  for (;;) {
    if (i < 0) {
      if (lo == edge_rule::wrap) return (i % n + n) % n;
      if (lo == edge_rule::fixed || (lo == edge_rule::reflect && i == -1)) {
        fixed = true;
        return i < -g ? -g : i;
      }
      if (lo == edge_rule::reflect) odd = !odd;
      i = lo == edge_rule::reflect ? -2 - i : -1 - i;
    } else if (i >= n) {
      if (hi == edge_rule::wrap) return i % n;
      if (hi == edge_rule::fixed || (hi == edge_rule::reflect && i == n)) {
        fixed = true;
        return i >= n + g ? n + g - 1 : i;
      }
      if (hi == edge_rule::reflect) odd = !odd;
      i = hi == edge_rule::reflect ? 2 * n - i : 2 * n - 1 - i;
    } else {
      return i;
    }
  }
}

/// map_reflecting on virtual axis `axis` under `rules`.
TESSERA_HD inline index_t map_reflecting(index_t i, index_t n, const edge_rules& rules, int axis, bool& fixed,
                                         bool& odd) {
  return map_reflecting(i, n, rules.ghost[axis], rules.face[axis][0], rules.face[axis][1], fixed, odd);
}

/// Whether cell i of virtual axis `axis` (n interior cells) lies beyond a fixed face under
/// `rules`: a fused pass keeps such cells as they are.
TESSERA_HD inline bool beyond_fixed_face(index_t i, index_t n, const edge_rules& rules, int axis) {
  bool fixed = false;
  map_coordinate(i, n, rules, axis, fixed);
  return fixed;
}

/// The rules for a view of rank Rank with ghost width g under boundary conditions bc
/// (none: every face fixed, as a plain sweep reads its ghosts).
template <int Rank>
edge_rules make_edge_rules(const std::optional<boundary_conditions<Rank>>& bc, index_t g) {
  edge_rules r;
  for (int d = 0; d < Rank; ++d) {
    const int v = d + (3 - Rank);
    r.ghost[v] = g;
    for (int side = 0; side < 2; ++side) {
      const boundary_kind k = bc ? bc->faces[2 * d + side].kind : boundary_kind::dirichlet;
      r.face[v][side] = k == boundary_kind::periodic  ? edge_rule::wrap
                        : k == boundary_kind::neumann ? edge_rule::mirror
                                                      : edge_rule::fixed;
    }
  }
  return r;
}

/// True when each point of st has its mirror image along axis d in the shape, with the
/// same coefficient.
template <class S, class T>
bool mirrored_along(const stencil<S, T>& st, int d) {
  constexpr int n = shape_traits<S>::size;
  for (int k = 0; k < n; ++k) {
    bool found = false;
    for (int j = 0; j < n && !found; ++j) {
      bool mirrored = true;
      for (int e = 0; e < S::rank; ++e)
        mirrored = mirrored && S::points[j][e] == (e == d ? -S::points[k][e] : S::points[k][e]);
      found = mirrored && st.coeffs[j] == st.coeffs[k];
    }
    if (!found) return false;
  }
  return true;
}

// The conditions' parameters below are std::type_identity_t<...>: S::rank is no context
// to deduce from, which GCC knows and nvcc's front end must be told (it refused a
// boundary_conditions argument otherwise).

/// True when, along every axis with a Neumann face in bc, the stencil's coefficients are
/// symmetric (the point mirrored along that axis is in the shape with the same
/// coefficient): then a mirrored field stays mirrored after a sweep, and a pass may fuse
/// several steps under those faces.
template <class S, class T>
bool mirror_symmetric(const stencil<S, T>& st, const std::type_identity_t<std::optional<boundary_conditions<S::rank>>>& bc) {
  if (!bc) return true;
  for (int d = 0; d < S::rank; ++d) {
    if (bc->faces[2 * d].kind != boundary_kind::neumann && bc->faces[2 * d + 1].kind != boundary_kind::neumann)
      continue;
    if (!mirrored_along(st, d)) return false;
  }
  return true;
}

/// True when a pass fusing several steps of st under bc equals as many fills and sweeps:
/// conditions are given (without them each sweep reads its input view's own ghosts, which
/// alternate between the two views step by step, while a pass holds one view's for all its
/// steps), every axis with a Neumann face has mirrored coefficients, and the stencil reads
/// no Dirichlet ghost beyond the wall (those reflect the interior of each step). One step
/// a pass is exact for any stencil.
template <class S, class T>
bool several_steps_exact(const stencil<S, T>& st, const std::type_identity_t<std::optional<boundary_conditions<S::rank>>>& bc) {
  return bc.has_value() && mirror_symmetric(st, bc) && !reads_beyond_dirichlet_wall(bc, shape_traits<S>::radius);
}

/// True when a pass with reflect faces (edge_rule::reflect) fusing several steps of st under
/// bc equals as many fills and sweeps where st reads past a Dirichlet wall: every Dirichlet
/// face holds the same value (a cell beyond two walls is the image of one cell under both
/// reflections), and the coefficients are symmetric along every axis with a Dirichlet or
/// Neumann face. False where st reads no Dirichlet ghost beyond a wall (several_steps_exact
/// decides there).
template <class S, class T>
bool fuses_across_walls(const stencil<S, T>& st, const std::type_identity_t<std::optional<boundary_conditions<S::rank>>>& bc) {
  if (!reads_beyond_dirichlet_wall(bc, shape_traits<S>::radius)) return false;
  const double* value = nullptr;
  for (int d = 0; d < S::rank; ++d) {
    bool walls = false;
    for (int side = 0; side < 2; ++side) {
      const boundary& f = bc->faces[2 * d + side];
      if (f.kind == boundary_kind::dirichlet) {
        if (value && f.value != *value) return false;
        value = &f.value;
        walls = true;
      }
      walls = walls || f.kind == boundary_kind::neumann;
    }
    if (walls && !mirrored_along(st, d)) return false;
  }
  return true;
}

/// rules (make_edge_rules under bc) with bc's Dirichlet faces reflected: the pass computes
/// the cells beyond them (for fuses_across_walls' cases).
template <class S, class T>
edge_rules with_reflected_walls(edge_rules rules, const stencil<S, T>& st,
                                const std::type_identity_t<std::optional<boundary_conditions<S::rank>>>& bc) {
  double sum = 0;
  for (int k = 0; k < shape_traits<S>::size; ++k) sum += static_cast<double>(st.coeffs[k]);
  for (int d = 0; d < S::rank; ++d)
    for (int side = 0; side < 2; ++side)
      if (bc->faces[2 * d + side].kind == boundary_kind::dirichlet) {
        rules.face[d + (3 - S::rank)][side] = edge_rule::reflect;
        rules.wall = bc->faces[2 * d + side].value;
      }
  rules.reflect_shift = 2 * rules.wall * (1 - sum);
  return rules;
}

}  // namespace tessera
