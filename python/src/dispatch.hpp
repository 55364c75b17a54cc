#pragma once
// The Python module's bridge from run-time choices (an array's dtype, rank and device, a
// shape named by kind and radius, a policy named as on the command line) to tessera's
// compile-time types. Every sweep the module offers is an instantiation chosen here; the
// sweeps of the built-in shapes are the ones the libraries precompiled.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include <tessera/tessera.hpp>

namespace tessera::python {

/// A view of each element type and rank the module serves, in one memory space.
template <class Space>
using views_in = std::variant<View<float, 1, Space>, View<float, 2, Space>, View<float, 3, Space>,
                              View<double, 1, Space>, View<double, 2, Space>, View<double, 3, Space>>;

/// The view behind a Python tessera.View: host memory (NumPy) or, in a CUDA build,
/// device memory (CuPy or any DLPack / __cuda_array_interface__ device array).
#if TESSERA_ENABLE_CUDA
using any_view = std::variant<views_in<HostSpace>, views_in<CudaSpace>>;
#else
using any_view = std::variant<views_in<HostSpace>>;
#endif

/// "'u' (interior 8x8x8, ghost 1, HostSpace) float32": what error messages name.
std::string describe(const any_view& v);

/// A stencil as Python declares it: a built-in shape (kind "star" or "box", rank,
/// radius) and one coefficient per point, in the shape's point order (shape_points).
struct stencil_desc {
  std::string kind;
  int rank = 0;
  int radius = 0;
  std::vector<double> coefficients;
};

/// Calls f(S{}) with the built-in shape of that kind, rank and radius; throws
/// unsupported_error naming the built-in shapes for any other.
template <int Rank, class F>
decltype(auto) with_shape(const std::string& kind, int radius, F&& f) {
  if (kind == "star") {
    switch (radius) {
      case 1: return f(star<Rank, 1>{});
      case 2: return f(star<Rank, 2>{});
      case 3: return f(star<Rank, 3>{});
      case 4: return f(star<Rank, 4>{});
      default: break;
    }
  } else if constexpr (Rank >= 2) {
    if (kind == "box") {
      if (radius == 1) return f(box<Rank, 1>{});
      if (radius == 2) return f(box<Rank, 2>{});
    }
  }
  throw unsupported_error("tessera: no built-in " + std::to_string(Rank) + "D shape '" + kind + "' of radius " +
                          std::to_string(radius) +
                          "; the module has stars of radius 1-4 (1D, 2D, 3D) and boxes of radius 1-2 (2D, 3D)");
}

/// The shape's stencil<S, T> with d's coefficients; d.rank must be S::rank.
template <class S, class T>
stencil<S, T> make_stencil(S, const stencil_desc& d) {
  std::vector<T> c(d.coefficients.begin(), d.coefficients.end());
  return stencil<S, T>(S{}, c);
}

/// Which face conditions iterate fills (kind per face; values for Dirichlet faces), or
/// none: the ghosts keep what they hold.
struct boundary_desc {
  std::vector<boundary> faces;  // empty: no fills; 1: every face; 2 * rank: one per face
};

template <int Rank>
std::optional<boundary_conditions<Rank>> to_conditions(const boundary_desc& b) {
  if (b.faces.empty()) return std::nullopt;
  boundary_conditions<Rank> bc;
  if (b.faces.size() == 1) return boundary_conditions<Rank>::uniform(b.faces[0]);
  if (b.faces.size() != 2 * Rank)
    throw invalid_argument_error("tessera.iterate: boundary has " + std::to_string(b.faces.size()) +
                                 " faces but a " + std::to_string(Rank) + "D grid has " + std::to_string(2 * Rank) +
                                 " (low and high side of each axis, slowest axis first); pass one kind for every "
                                 "face or one per face");
  for (int f = 0; f < 2 * Rank; ++f) bc.faces[f] = b.faces[static_cast<std::size_t>(f)];
  return bc;
}

/// What a sweep entry point needs of the views: the two of the same alternative.
template <class Space, class F>
decltype(auto) with_view_pair(const views_in<Space>& a, const views_in<Space>& b, const std::string& who, F&& f) {
  return std::visit(
      [&](const auto& va) -> decltype(auto) {
        using V = std::decay_t<decltype(va)>;
        const V* vb = std::get_if<V>(&b);
        if (!vb)
          throw extent_mismatch_error(who + ": " + va.describe() + " and " +
                                      std::visit([](const auto& x) { return x.describe(); }, b) +
                                      " differ in element type or rank; pass arrays of one dtype and rank");
        return f(va, *vb);
      },
      a);
}

/// validate's verdict, as Python sees it (a dict).
struct validation_desc {
  std::string policy, shape, reference, message;
  double tolerance = 0, scale = 0, scaled_error = 0, max_abs_error = 0;
  bool passed = false;
};

// The sweep entry points, one translation unit per entry point and memory space
// (sweeps_host_apply.cpp, ..., sweeps_cuda_validate.cpp) so the build spreads over the cores.
void apply_host(const std::string& policy, const stencil_desc& st, const views_in<HostSpace>& in,
                const views_in<HostSpace>& out);
/// Returns true when the result is in u, false when it is in scratch.
bool iterate_host(const std::string& policy, const stencil_desc& st, const views_in<HostSpace>& u,
                  const views_in<HostSpace>& scratch, int steps, const boundary_desc& b);
std::vector<std::string> host_policy_names();
validation_desc validate_host(const std::string& policy, const stencil_desc& st, const views_in<HostSpace>& in,
                              double tolerance);
#if TESSERA_ENABLE_CUDA
void apply_cuda(const std::string& policy, const stencil_desc& st, const views_in<CudaSpace>& in,
                const views_in<CudaSpace>& out, std::uintptr_t stream);
bool iterate_cuda(const std::string& policy, const stencil_desc& st, const views_in<CudaSpace>& u,
                  const views_in<CudaSpace>& scratch, int steps, const boundary_desc& b);
std::vector<std::string> cuda_policy_names();
validation_desc validate_cuda(const std::string& policy, const stencil_desc& st, const views_in<CudaSpace>& in,
                              double tolerance);
#endif

/// The refusal of a policy name no policy of that space has.
[[noreturn]] void unknown_policy(const std::string& name, bool device);

}  // namespace tessera::python
