#pragma once
// Boundary conditions as fills of the ghost layer, per face, between sweeps:
//   dirichlet(v)  u = v on the wall, which is the first ghost layer (u(-1) = u(n) = v: a
//                 vertex-centred grid whose interior point i lies at (i + 1) h); the layers
//                 beyond it hold the odd reflection of the interior about the wall,
//                 u(-1 - k) = 2v - u(-1 + k) and u(n + k) = 2v - u(n - k), so that a
//                 stencil wider than one point sees a field that crosses v at the wall with
//                 its odd-order terms intact (the method of images: exact for solutions
//                 whose even derivatives vanish on the wall, as those of the heat and
//                 Laplace equations with constant wall values do). With every layer set to
//                 v instead, a 4th-order Laplacian next to the wall lost all order.
//   periodic      ghost cells copy the interior from the opposite side: u(-k) = u(n - k)
//   neumann       zero gradient by mirroring about the face: u(-k) = u(k - 1),
//                 u(n - 1 + k) = u(n - k)  (a centred difference across the face is 0)
//   fixed         the ghost layers hold what the caller wrote there, and a fill leaves
//                 them as they are: a neighbour's halo that a sweep over a block of a
//                 distributed grid reads (mpi's fused passes: they must tell such faces
//                 from Dirichlet walls, whose layers beyond the wall change with the
//                 interior), or values given on the face. Sweeps and fused passes read
//                 them as they are. tessera::iterate and the solvers refuse it: the
//                 ghosts of their two views would alternate step by step.
// Axes are filled in order 0, 1, 2, each over the full padded range of the axes before
// it, so edges and corners take the values the later axis' rule gives them.
// This header holds the value types and the index rule shared by host and device fills.
#include <optional>
#include <string>

#include "tessera/core/array.hpp"
#include "tessera/core/config.hpp"
#include "tessera/core/errors.hpp"

namespace tessera {

// (the order is part of the Python binding's face codes: new kinds go last)
enum class boundary_kind { dirichlet, periodic, neumann, fixed };

struct boundary {
  boundary_kind kind = boundary_kind::dirichlet;
  double value = 0;  // dirichlet only
  static constexpr boundary dirichlet(double v = 0) { return {boundary_kind::dirichlet, v}; }
  static constexpr boundary periodic() { return {boundary_kind::periodic, 0}; }
  static constexpr boundary neumann() { return {boundary_kind::neumann, 0}; }
  static constexpr boundary fixed() { return {boundary_kind::fixed, 0}; }
};

inline std::string to_string(boundary_kind k) {
  return k == boundary_kind::dirichlet  ? "dirichlet"
         : k == boundary_kind::periodic ? "periodic"
         : k == boundary_kind::neumann  ? "neumann"
                                        : "fixed";
}

/// One boundary per face: face 2d is the low side of axis d, face 2d + 1 the high side.
/// Periodic must be set on both faces of an axis.
template <int Rank>
struct boundary_conditions {
  array<boundary, 2 * Rank> faces{};

  static constexpr boundary_conditions uniform(boundary b) {
    boundary_conditions bc;
    for (int f = 0; f < 2 * Rank; ++f) bc.faces[f] = b;
    return bc;
  }
  /// Throws invalid_argument_error for an axis outside [0, Rank).
  constexpr boundary_conditions& set(int axis, boundary low, boundary high) {
    if (axis < 0 || axis >= Rank)
      throw invalid_argument_error("tessera::boundary_conditions<" + std::to_string(Rank) + ">::set: axis " +
                                   std::to_string(axis) + " does not exist (axes are 0 .. " + std::to_string(Rank - 1) +
                                   ", slowest first)");
    faces[2 * axis] = low;
    faces[2 * axis + 1] = high;
    return *this;
  }
};

/// True when bc has a face of kind k.
template <int Rank>
constexpr bool has_face(const std::optional<boundary_conditions<Rank>>& bc, boundary_kind k) {
  if (!bc) return false;
  for (const auto& f : bc->faces)
    if (f.kind == k) return true;
  return false;
}

/// True when there are conditions and every face is Dirichlet.
template <int Rank>
constexpr bool all_faces_dirichlet(const std::optional<boundary_conditions<Rank>>& bc) {
  if (!bc) return false;
  for (const auto& f : bc->faces)
    if (f.kind != boundary_kind::dirichlet) return false;
  return true;
}

/// True when every ghost cell that a sweep reading `reach` points away reads under bc holds
/// a constant: every face Dirichlet and a reach of at most 1, so that the sweep reads only
/// the walls (the first ghost layer, which holds the faces' values; the layers beyond it
/// reflect the interior, and corners within one layer of a wall hold that wall's value).
/// Stepping loops then fill each view once (iterate, mpi::iterate) instead of once a step.
template <int Rank>
constexpr bool ghosts_read_are_constant(const std::optional<boundary_conditions<Rank>>& bc, int reach) {
  return reach <= 1 && all_faces_dirichlet(bc);
}

/// True when bc has a Dirichlet face whose layers beyond the wall a sweep reading `reach`
/// points away reads: those cells change with the interior, so a fused pass cannot hold
/// them fixed across its steps (a fixed face's layers it may: they never change).
template <int Rank>
constexpr bool reads_beyond_dirichlet_wall(const std::optional<boundary_conditions<Rank>>& bc, int reach) {
  if (!bc || reach <= 1) return false;
  for (const auto& f : bc->faces)
    if (f.kind == boundary_kind::dirichlet) return true;
  return false;
}

namespace detail {
/// Refuses conditions with a fixed face, naming it, for `who` (a stepping loop or a solver
/// whose two views' ghosts would alternate under it).
template <int Rank>
void refuse_fixed_faces(const std::string& who, const std::optional<boundary_conditions<Rank>>& bc) {
  if (!bc) return;
  for (int f = 0; f < 2 * Rank; ++f)
    if (bc->faces[f].kind == boundary_kind::fixed)
      throw unsupported_error(who + ": face " + std::to_string(f) + " (axis " + std::to_string(f / 2) +
                              (f % 2 ? ", high" : ", low") +
                              " side) is fixed, whose ghosts no fill writes: the two views a stepping loop "
                              "alternates would each read their own; give it a Dirichlet, Neumann or periodic "
                              "condition, or fill both views' ghosts and sweep with tessera::apply");
}

/// For ghost coordinate i on an axis of n interior points (i < 0 or i >= n), the
/// interior coordinate a periodic or mirrored fill copies from, or (Dirichlet, i beyond
/// the wall: on_wall false) the coordinate whose value it reflects about the wall.
TESSERA_HD constexpr index_t ghost_source(index_t i, index_t n, boundary_kind kind) {
  if (kind == boundary_kind::periodic) return i < 0 ? i + n : i - n;
  if (kind == boundary_kind::neumann) return i < 0 ? -1 - i : 2 * n - 1 - i;  // mirror about the face
  return i < 0 ? -2 - i : 2 * n - i;  // dirichlet: reflect about the wall cell (-1 or n)
}

/// Whether ghost coordinate i (on an axis of n interior points) is the wall of a
/// Dirichlet face: the first ghost layer, which holds the face's value.
TESSERA_HD constexpr bool on_wall(index_t i, index_t n) { return i == -1 || i == n; }

/// A Dirichlet fill's value at a ghost cell beyond the wall: the odd reflection
/// 2 v - u(reflected cell), in T as every backend computes it.
template <class T>
TESSERA_HD constexpr T reflect_about_wall(double wall_value, T reflected) {
  return T(2) * static_cast<T>(wall_value) - reflected;
}

/// The box [lo, hi) of ghost cells that the fill of face (d, side) writes, the faces
/// filled in the order axis 0 low, axis 0 high, axis 1 low, ...: axis d its g ghost
/// layers on that side; axes before d their full range (filled already, so edges and
/// corners take the later axis' rule); axes after d their interior. Every backend fills
/// these boxes, so host and device fills agree cell by cell.
template <int Rank>
TESSERA_HD constexpr void ghost_slab(const array<index_t, Rank>& n, index_t g, int d, int side, index_t* lo,
                                     index_t* hi) {
  for (int e = 0; e < Rank; ++e) {
    lo[e] = e < d ? -g : 0;
    hi[e] = e < d ? n[e] + g : n[e];
  }
  lo[d] = side == 0 ? -g : n[d];
  hi[d] = side == 0 ? 0 : n[d] + g;
}
}  // namespace detail

}  // namespace tessera
