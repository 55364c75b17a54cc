// tessera._tessera: the native half of the Python module (python/tessera/__init__.py is
// the other). Arrays come in through nanobind's ndarray caster (NumPy, CuPy, anything
// with DLPack or __cuda_array_interface__) and become views of their memory without a
// copy (View::wrap over layout::strided); sweeps run with the GIL released; tessera's
// exceptions become Python exceptions carrying its messages.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <string>
#include <vector>

#include "dispatch.hpp"
#include "physics.hpp"
#include "solvers.hpp"

namespace nb = nanobind;
namespace ts = tessera;
using namespace tessera::python;

namespace tessera::python {

/// f(the C++ view behind v), whichever memory space, element type and rank it has.
template <class F>
auto with_view(const any_view& v, F&& f) {
  return std::visit([&](const auto& views) { return std::visit(f, views); }, v);
}

std::string describe(const any_view& v) {
  return with_view(v, [](const auto& x) {
    using T = typename std::decay_t<decltype(x)>::value_type;
    return x.describe() + (std::is_same_v<T, float> ? " float32" : " float64");
  });
}

[[noreturn]] void unknown_policy(const std::string& name, bool device) {
  std::string names;
#if TESSERA_ENABLE_CUDA
  const auto list = device ? cuda_policy_names() : host_policy_names();
#else
  const auto list = host_policy_names();
#endif
  for (const auto& n : list) names += (names.empty() ? "" : ", ") + n;
  std::string other;
  if (name.rfind("cuda:", 0) == 0 && !device)
    other = "; " + name + " sweeps device arrays (CuPy), these are host arrays (NumPy)";
  else if (name.rfind("host:", 0) == 0 && device)
    other = "; " + name + " sweeps host arrays (NumPy), these are device arrays";
  throw invalid_argument_error("tessera: no policy '" + name + "' for " +
                               (device ? std::string("device") : std::string("host")) + " arrays" + other +
                               "; this build offers " + names);
}

}  // namespace tessera::python

namespace {

#if TESSERA_ENABLE_CUDA
constexpr bool built_with_cuda = true;
#else
constexpr bool built_with_cuda = false;
#endif
#if TESSERA_PYTHON_KOKKOS
constexpr bool built_with_kokkos = true;
#else
constexpr bool built_with_kokkos = false;
#endif

/// The native view: the C++ view of an array's memory. The Python View that holds it
/// also holds the array, which keeps the memory alive.
struct native_view {
  any_view view;
  bool device = false;
  int rank = 0;
  int ghost = 0;
  std::string dtype;
  std::vector<ts::index_t> interior;
};

/// The native view of a tessera view: what Python reads of it, derived from the view.
template <class T, int Rank, class Space>
native_view native_view_of(ts::View<T, Rank, Space> view) {
  native_view v;
  v.device = !Space::host_accessible;
  v.rank = Rank;
  v.ghost = view.ghost();
  v.dtype = std::is_same_v<T, float> ? "float32" : "float64";
  for (int d = 0; d < Rank; ++d) v.interior.push_back(view.extents()[d]);
  v.view = views_in<Space>(std::move(view));
  return v;
}

template <class T, int Rank, class Space>
native_view make_view(const nb::ndarray<>& a, int ghost, const std::string& label) {
  ts::extents<Rank> n{};
  ts::array<ts::index_t, Rank> strides{};
  for (int d = 0; d < Rank; ++d) {
    const auto len = static_cast<ts::index_t>(a.shape(static_cast<std::size_t>(d)));
    if (len < 2 * static_cast<ts::index_t>(ghost))
      throw ts::invalid_argument_error("tessera.wrap: array '" + label + "' has " + std::to_string(len) +
                                       " elements along axis " + std::to_string(d) + ", fewer than the two ghost layers "
                                       "of width " + std::to_string(ghost) + "; the array holds the ghosts, its interior "
                                       "is array[g:-g] on every axis");
    n[d] = len - 2 * static_cast<ts::index_t>(ghost);
    strides[d] = static_cast<ts::index_t>(a.stride(static_cast<std::size_t>(d)));
    if (strides[d] < 0)
      throw ts::invalid_argument_error("tessera.wrap: array '" + label + "' has a negative stride along axis " +
                                       std::to_string(d) + " (a reversed slice); pass a C-ordered array "
                                       "(numpy.ascontiguousarray)");
  }
  ts::layout<Rank> l;
  try {
    l = ts::layout<Rank>::strided(n, ghost, strides);
  } catch (const ts::invalid_argument_error& e) {
    throw ts::invalid_argument_error("tessera.wrap: array '" + label + "': " + e.what());
  }
  return native_view_of(ts::View<T, Rank, Space>::wrap(label, static_cast<T*>(a.data()), l));
}

template <class T, class Space>
native_view make_view_of_rank(const nb::ndarray<>& a, int ghost, const std::string& label) {
  switch (a.ndim()) {
    case 1: return make_view<T, 1, Space>(a, ghost, label);
    case 2: return make_view<T, 2, Space>(a, ghost, label);
    case 3: return make_view<T, 3, Space>(a, ghost, label);
    default:
      throw ts::invalid_argument_error("tessera.wrap: array '" + label + "' has " + std::to_string(a.ndim()) +
                                       " dimensions; tessera grids have 1, 2 or 3");
  }
}

native_view wrap_array(const nb::ndarray<>& a, int ghost, const std::string& label) {
  if (ghost < 0)
    throw ts::invalid_argument_error("tessera.wrap: ghost=" + std::to_string(ghost) + " for array '" + label +
                                     "' is negative; pass the width of the ghost layer the array holds (0 or more)");
  const bool is_float = a.dtype() == nb::dtype<float>(), is_double = a.dtype() == nb::dtype<double>();
  if (!is_float && !is_double)
  {
    const auto dt = a.dtype();
    const char* kinds[] = {"int", "uint", "float", "opaque", "bfloat", "complex", "bool"};
    const std::string kind = dt.code < 7 ? kinds[dt.code] : "code " + std::to_string(dt.code) + " ";
    throw ts::invalid_argument_error("tessera.wrap: array '" + label + "' has dtype " + kind +
                                     std::to_string(dt.bits) +
                                     "; tessera sweeps float32 and float64 arrays (convert with astype)");
  }
  const auto dev = a.device_type();
  if (dev == nb::device::cpu::value) {
    return is_float ? make_view_of_rank<float, ts::HostSpace>(a, ghost, label)
                    : make_view_of_rank<double, ts::HostSpace>(a, ghost, label);
  }
#if TESSERA_ENABLE_CUDA
  if (dev == nb::device::cuda::value || dev == nb::device::cuda_managed::value) {
    return is_float ? make_view_of_rank<float, ts::CudaSpace>(a, ghost, label)
                    : make_view_of_rank<double, ts::CudaSpace>(a, ghost, label);
  }
  throw ts::invalid_argument_error("tessera.wrap: array '" + label + "' lives on a device of DLPack type " +
                                   std::to_string(dev) + "; tessera sweeps host (NumPy) and CUDA (CuPy) arrays");
#else
  throw ts::invalid_argument_error("tessera.wrap: array '" + label + "' lives on a device of DLPack type " +
                                   std::to_string(dev) +
                                   " but this build of the module has no CUDA backend (it was built without nvcc); "
                                   "sweep a NumPy array, or rebuild where nvcc is found");
#endif
}

/// tessera.zeros: the layout tessera gives its own views (rows padded to 128 bytes, the
/// interior of every row on a 128-byte boundary), over a flat buffer the caller allocated.
/// Returns (span, row length, elements before the first ghost of a row) for the caller to
/// allocate and slice; wrap_padded then wraps the buffer with that layout, so the strategies
/// that need 16-byte rows serve it.
template <int Rank, class T>
ts::layout<Rank> padded_layout(const std::vector<ts::index_t>& shape, int ghost) {
  ts::extents<Rank> n{};
  for (int d = 0; d < Rank; ++d) n[d] = shape[static_cast<std::size_t>(d)];
  return ts::layout<Rank>(n, ghost, ts::default_row_alignment<T>);
}

template <class F>
decltype(auto) with_rank_and_type(std::size_t rank, int itemsize, const char* who, F&& f) {
  if (itemsize != 4 && itemsize != 8)
    throw ts::invalid_argument_error(std::string(who) + ": tessera sweeps float32 and float64 arrays");
  switch (rank) {
    case 1: return itemsize == 4 ? f(std::integral_constant<int, 1>{}, float{}) : f(std::integral_constant<int, 1>{}, double{});
    case 2: return itemsize == 4 ? f(std::integral_constant<int, 2>{}, float{}) : f(std::integral_constant<int, 2>{}, double{});
    case 3: return itemsize == 4 ? f(std::integral_constant<int, 3>{}, float{}) : f(std::integral_constant<int, 3>{}, double{});
    default:
      throw ts::invalid_argument_error(std::string(who) + ": a shape of " + std::to_string(rank) +
                                       " extents; tessera grids have 1, 2 or 3");
  }
}

std::vector<ts::index_t> padded_plan(const std::vector<ts::index_t>& shape, int ghost, int itemsize) {
  return with_rank_and_type(shape.size(), itemsize, "tessera.zeros", [&](auto rank_c, auto t) {
    constexpr int R = decltype(rank_c)::value;
    const auto l = padded_layout<R, decltype(t)>(shape, ghost);
    return std::vector<ts::index_t>{l.span(), R >= 2 ? l.stride(R - 2) : l.span(), l.pad_left(),
                                    static_cast<ts::index_t>(ts::default_row_alignment<decltype(t)> * sizeof(decltype(t)))};
  });
}

native_view wrap_padded(const nb::ndarray<>& buffer, const std::vector<ts::index_t>& shape, int ghost,
                        const std::string& label) {
  const std::string who = "tessera.zeros: '" + label + "'";
  if (buffer.ndim() != 1 || buffer.stride(0) != 1)
    throw ts::invalid_argument_error(who + ": the buffer must be one contiguous axis");
  const bool is_float = buffer.dtype() == nb::dtype<float>();
  if (!is_float && buffer.dtype() != nb::dtype<double>())
    throw ts::invalid_argument_error(who + ": tessera sweeps float32 and float64 arrays");
  return with_rank_and_type(shape.size(), is_float ? 4 : 8, "tessera.zeros", [&](auto rank_c, auto t) {
    constexpr int R = decltype(rank_c)::value;
    using T = decltype(t);
    const auto l = padded_layout<R, T>(shape, ghost);
    const auto address = reinterpret_cast<std::uintptr_t>(buffer.data());
    if (static_cast<ts::index_t>(buffer.shape(0)) < l.span() ||
        address % (ts::default_row_alignment<T> * sizeof(T)) != 0)
      throw ts::invalid_argument_error(who + ": the buffer must hold " + std::to_string(l.span()) +
                                       " elements from a 128-byte boundary");
    auto make = [&](auto space) {
      using Space = decltype(space);
      return native_view_of(ts::View<T, R, Space>::wrap(label, static_cast<T*>(buffer.data()), l));
    };
    if (buffer.device_type() == nb::device::cpu::value) return make(ts::HostSpace{});
#if TESSERA_ENABLE_CUDA
    return make(ts::CudaSpace{});
#else
    throw ts::invalid_argument_error(who + ": this build has no CUDA backend");
#endif
  });
}

void require_same_place(const native_view& a, const native_view& b, const char* who) {
  if (a.device != b.device)
    throw ts::invalid_argument_error(std::string(who) + ": " + describe(a.view) + " and " + describe(b.view) +
                                     " live in different memories (host and device); pass two NumPy or two device "
                                     "arrays");
}

stencil_desc make_stencil_desc(const std::string& kind, int rank, int radius, const std::vector<double>& c) {
  stencil_desc d{kind, rank, radius, c};
  auto check = [&](auto s) {
    using S = decltype(s);
    if (c.size() != static_cast<std::size_t>(ts::shape_traits<S>::size))
      throw ts::invalid_argument_error("tessera.stencil: shape " + ts::shape_name<S>() + " has " +
                                       std::to_string(ts::shape_traits<S>::size) + " points but " +
                                       std::to_string(c.size()) +
                                       " coefficients were given; pass one per point, in the order of "
                                       "tessera.shape_points(kind, rank, radius)");
  };
  switch (rank) {
    case 1: with_shape<1>(kind, radius, check); break;
    case 2: with_shape<2>(kind, radius, check); break;
    case 3: with_shape<3>(kind, radius, check); break;
    default:
      throw ts::invalid_argument_error("tessera.stencil: rank " + std::to_string(rank) + " is not 1, 2 or 3");
  }
  return d;
}

std::vector<std::vector<int>> shape_points(const std::string& kind, int rank, int radius) {
  std::vector<std::vector<int>> pts;
  auto collect = [&](auto s) {
    for (const auto& p : decltype(s)::points) pts.emplace_back(p.begin(), p.end());
  };
  switch (rank) {
    case 1: with_shape<1>(kind, radius, collect); break;
    case 2: with_shape<2>(kind, radius, collect); break;
    case 3: with_shape<3>(kind, radius, collect); break;
    default: throw ts::invalid_argument_error("tessera.shape_points: rank " + std::to_string(rank) + " is not 1, 2 or 3");
  }
  return pts;
}

/// fd builders: the weights tessera::fd computes, as a stencil_desc (a star of radius
/// order / 2). which: 0 first derivative, 1 second derivative, 2 Laplacian (axis unused).
stencil_desc fd_stencil(int which, int rank, int order, int axis, double h) {
  stencil_desc out;
  auto build = [&](auto rank_c, auto order_c) {
    constexpr int R = decltype(rank_c)::value, O = decltype(order_c)::value;
    const auto st = which == 0   ? ts::fd::first_derivative<R, O>(axis, h)
                    : which == 1 ? ts::fd::second_derivative<R, O>(axis, h)
                                 : ts::fd::laplacian<R, O>(h);
    out = {"star", R, O / 2, std::vector<double>(st.coeffs.begin(), st.coeffs.end())};
  };
  auto by_order = [&](auto rank_c) {
    switch (order) {
      case 2: return build(rank_c, std::integral_constant<int, 2>{});
      case 4: return build(rank_c, std::integral_constant<int, 4>{});
      case 6: return build(rank_c, std::integral_constant<int, 6>{});
      case 8: return build(rank_c, std::integral_constant<int, 8>{});
      default:
        throw ts::invalid_argument_error("tessera.fd: order " + std::to_string(order) +
                                         " is not 2, 4, 6 or 8 (central differences of even order)");
    }
  };
  if (!(h > 0))
    throw ts::invalid_argument_error("tessera.fd: grid spacing h=" + std::to_string(h) + " must be positive");
  switch (rank) {
    case 1: by_order(std::integral_constant<int, 1>{}); break;
    case 2: by_order(std::integral_constant<int, 2>{}); break;
    case 3: by_order(std::integral_constant<int, 3>{}); break;
    default: throw ts::invalid_argument_error("tessera.fd: rank " + std::to_string(rank) + " is not 1, 2 or 3");
  }
  return out;
}

boundary_desc make_boundary(const std::vector<std::string>& kinds, const std::vector<double>& values) {
  boundary_desc b;
  for (std::size_t f = 0; f < kinds.size(); ++f) {
    const auto& k = kinds[f];
    const double v = f < values.size() ? values[f] : 0.0;
    if (k == "periodic") b.faces.push_back(ts::boundary::periodic());
    else if (k == "neumann") b.faces.push_back(ts::boundary::neumann());
    else if (k == "dirichlet") b.faces.push_back(ts::boundary::dirichlet(v));
    else
      throw ts::invalid_argument_error("tessera.iterate: boundary '" + k +
                                       "' is not periodic, neumann, dirichlet or a number (a Dirichlet value)");
  }
  return b;
}

void apply_views(const std::string& policy, const stencil_desc& st, const native_view& in, const native_view& out,
                 std::uintptr_t stream) {
  require_same_place(in, out, "tessera.apply");
  if (!in.device) {
    apply_host(policy, st, std::get<0>(in.view), std::get<0>(out.view));
    return;
  }
#if TESSERA_ENABLE_CUDA
  apply_cuda(policy, st, std::get<1>(in.view), std::get<1>(out.view), stream);
#else
  (void)stream;
#endif
}

bool iterate_views(const std::string& policy, const stencil_desc& st, const native_view& u,
                   const native_view& scratch, int steps, const boundary_desc& b) {
  require_same_place(u, scratch, "tessera.iterate");
  if (!u.device) return iterate_host(policy, st, std::get<0>(u.view), std::get<0>(scratch.view), steps, b);
#if TESSERA_ENABLE_CUDA
  return iterate_cuda(policy, st, std::get<1>(u.view), std::get<1>(scratch.view), steps, b);
#else
  return true;
#endif
}

validation_desc validate_view(const std::string& policy, const stencil_desc& st, const native_view& in,
                              double tolerance) {
  if (!in.device) return validate_host(policy, st, std::get<0>(in.view), tolerance);
#if TESSERA_ENABLE_CUDA
  return validate_cuda(policy, st, std::get<1>(in.view), tolerance);
#else
  return {};
#endif
}

solve_report multigrid_views(const std::string& policy, const solve_request& req, const native_view& f,
                             const native_view& u, const native_view* k, const boundary_desc& b) {
  require_same_place(f, u, "tessera.multigrid_solve");
  if (k) require_same_place(f, *k, "tessera.multigrid_solve");
  if (!f.device)
    return multigrid_host(policy, req, std::get<0>(f.view), std::get<0>(u.view), k ? &std::get<0>(k->view) : nullptr,
                          b);
#if TESSERA_ENABLE_CUDA
  return multigrid_cuda(policy, req, std::get<1>(f.view), std::get<1>(u.view), k ? &std::get<1>(k->view) : nullptr,
                        b);
#else
  return {};
#endif
}

void physics_views(const std::string& policy, const std::string& kernel, double parameter,
                   const std::vector<const native_view*>& in, const native_view& out) {
  const std::string who = "tessera.physics." + kernel;
  for (const auto* v : in) require_same_place(*v, out, who.c_str());
  if (!out.device) {
    std::vector<const views_in<ts::HostSpace>*> fields;
    for (const auto* v : in) fields.push_back(&std::get<0>(v->view));
    physics_host(policy, kernel, parameter, fields, std::get<0>(out.view));
    return;
  }
#if TESSERA_ENABLE_CUDA
  std::vector<const views_in<ts::CudaSpace>*> fields;
  for (const auto* v : in) fields.push_back(&std::get<1>(v->view));
  physics_cuda(policy, kernel, parameter, fields, std::get<1>(out.view));
#endif
}

/// norm 0: max |a|, 1: L2 norm, 2: dot(a, b): tessera's reductions over the interiors.
double reduce_views(int which, const native_view& a, const native_view* b) {
  if (b) require_same_place(a, *b, "tessera.dot");
  return with_view(a.view, [&](const auto& x) -> double {
    if (which == 0) return ts::norm_max(x);
    if (which == 1) return ts::norm_l2(x);
    using V = std::decay_t<decltype(x)>;
    // require_same_place: b's memory space is a's
    const V* y = std::get_if<V>(&std::get<views_in<typename V::memory_space>>(b->view));
    if (!y)
      throw ts::extent_mismatch_error("tessera.dot: " + describe(a.view) + " and " + describe(b->view) +
                                      " differ in element type or rank");
    return ts::dot(x, *y);
  });
}

/// Python exception types: tessera.Error (a RuntimeError) and one per C++ exception.
struct exception_types {
  PyObject *error, *invalid_argument, *extent_mismatch, *aliasing, *ghost_width, *out_of_bounds, *unsupported,
      *backend, *allocation;
};
exception_types exceptions;

PyObject* new_exception(nb::module_& m, const char* name, PyObject* base1, PyObject* base2 = nullptr) {
  const std::string qualified = std::string("tessera._tessera.") + name;
  PyObject* bases = base2 ? PyTuple_Pack(2, base1, base2) : PyTuple_Pack(1, base1);
  PyObject* type = PyErr_NewException(qualified.c_str(), bases, nullptr);
  Py_DECREF(bases);
  if (!type) throw nb::python_error();
  m.attr(name) = nb::handle(type);
  return type;
}

}  // namespace

NB_MODULE(_tessera, m) {
  m.doc() = "tessera's native sweeps (use the tessera package, not this module)";

  auto& x = exceptions;
  x.error = new_exception(m, "Error", PyExc_RuntimeError);
  x.invalid_argument = new_exception(m, "InvalidArgumentError", x.error, PyExc_ValueError);
  x.extent_mismatch = new_exception(m, "ExtentMismatchError", x.error, PyExc_ValueError);
  x.aliasing = new_exception(m, "AliasingError", x.error, PyExc_ValueError);
  x.ghost_width = new_exception(m, "GhostWidthError", x.error, PyExc_ValueError);
  x.out_of_bounds = new_exception(m, "OutOfBoundsError", x.error, PyExc_IndexError);
  x.unsupported = new_exception(m, "UnsupportedError", x.error);
  x.backend = new_exception(m, "BackendError", x.error);
  x.allocation = new_exception(m, "AllocationError", x.backend, PyExc_MemoryError);
  nb::register_exception_translator([](const std::exception_ptr& p, void*) {
    try {
      std::rethrow_exception(p);
    } catch (const ts::invalid_argument_error& e) {
      PyErr_SetString(exceptions.invalid_argument, e.what());
    } catch (const ts::extent_mismatch_error& e) {
      PyErr_SetString(exceptions.extent_mismatch, e.what());
    } catch (const ts::aliasing_error& e) {
      PyErr_SetString(exceptions.aliasing, e.what());
    } catch (const ts::ghost_width_error& e) {
      PyErr_SetString(exceptions.ghost_width, e.what());
    } catch (const ts::out_of_bounds_error& e) {
      PyErr_SetString(exceptions.out_of_bounds, e.what());
    } catch (const ts::unsupported_error& e) {
      PyErr_SetString(exceptions.unsupported, e.what());
    } catch (const ts::allocation_error& e) {
      PyErr_SetString(exceptions.allocation, e.what());
    } catch (const ts::backend_error& e) {
      PyErr_SetString(exceptions.backend, e.what());
    } catch (const ts::error& e) {
      PyErr_SetString(exceptions.error, e.what());
    }
  });

  nb::class_<native_view>(m, "NativeView")
      .def_ro("device", &native_view::device)
      .def_ro("rank", &native_view::rank)
      .def_ro("ghost", &native_view::ghost)
      .def_ro("dtype", &native_view::dtype)
      .def_ro("interior", &native_view::interior)
      .def("describe", [](const native_view& v) { return describe(v.view); })
      .def_prop_ro("label", [](const native_view& v) { return with_view(v.view, [](const auto& x) { return x.label(); }); })
      // What code compiled outside the module (tessera._jit) needs to rebuild the same
      // view: the address of its memory (element (-ghost, ...) or, padded, the row's
      // first element), the strides in elements, the row alignment (1: strided) and the
      // unused elements before each row's first ghost.
      .def_prop_ro("layout", [](const native_view& v) {
        return with_view(v.view, [](const auto& x) {
          const auto& l = x.layout();
          std::vector<ts::index_t> strides(l.strides().begin(), l.strides().end());
          return nb::make_tuple(reinterpret_cast<std::uintptr_t>(x.data()), strides, l.row_alignment(), l.pad_left());
        });
      });

  nb::class_<stencil_desc>(m, "NativeStencil")
      .def_ro("kind", &stencil_desc::kind)
      .def_ro("rank", &stencil_desc::rank)
      .def_ro("radius", &stencil_desc::radius)
      .def_ro("coefficients", &stencil_desc::coefficients);

  nb::class_<boundary_desc>(m, "NativeBoundary");

  m.def("wrap", &wrap_array, nb::arg("array"), nb::arg("ghost"), nb::arg("label"),
        "A view of the array's memory, ghost layer inside (no copy).");
  m.def("padded_plan", &padded_plan, nb::arg("shape"), nb::arg("ghost"), nb::arg("itemsize"));
  m.def("wrap_padded", &wrap_padded, nb::arg("buffer"), nb::arg("shape"), nb::arg("ghost"), nb::arg("label"));
  m.def("stencil", &make_stencil_desc, nb::arg("kind"), nb::arg("rank"), nb::arg("radius"), nb::arg("coefficients"));
  m.def("shape_points", &shape_points, nb::arg("kind"), nb::arg("rank"), nb::arg("radius"));
  m.def("fd_stencil", &fd_stencil, nb::arg("which"), nb::arg("rank"), nb::arg("order"), nb::arg("axis"),
        nb::arg("h"));
  m.def("boundary", &make_boundary, nb::arg("kinds"), nb::arg("values"));
  m.def("apply", &apply_views, nb::arg("policy"), nb::arg("stencil"), nb::arg("input"), nb::arg("output"),
        nb::arg("stream"), nb::call_guard<nb::gil_scoped_release>());
  m.def("iterate", &iterate_views, nb::arg("policy"), nb::arg("stencil"), nb::arg("u"), nb::arg("scratch"),
        nb::arg("steps"), nb::arg("boundary"), nb::call_guard<nb::gil_scoped_release>());
  m.def(
      "validate",
      [](const std::string& policy, const stencil_desc& st, const native_view& in, double tolerance) {
        validation_desc r;
        {
          nb::gil_scoped_release unlocked;
          r = validate_view(policy, st, in, tolerance);
        }
        nb::dict d;
        d["policy"] = r.policy;
        d["shape"] = r.shape;
        d["reference"] = r.reference;
        d["message"] = r.message;
        d["tolerance"] = r.tolerance;
        d["scale"] = r.scale;
        d["scaled_error"] = r.scaled_error;
        d["max_abs_error"] = r.max_abs_error;
        d["passed"] = r.passed;
        return d;
      },
      nb::arg("policy"), nb::arg("stencil"), nb::arg("input"), nb::arg("tolerance"));
  m.def("physics", &physics_views, nb::arg("policy"), nb::arg("kernel"), nb::arg("parameter"), nb::arg("inputs"),
        nb::arg("output"), nb::call_guard<nb::gil_scoped_release>());
  m.def(
      "multigrid_solve",
      [](const std::string& policy, double a, double b, const stencil_desc* L, std::vector<double> h,
         const native_view* k, const native_view& f, const native_view& u, const boundary_desc& bc,
         std::string cycle, std::string smoother, int pre_smooth, int post_smooth, int max_cycles, double tol,
         bool fmg) {
        solve_request req;
        req.a = a;
        req.b = b;
        if (L) req.L = *L;
        req.h = std::move(h);
        req.cycle = std::move(cycle);
        req.smoother = std::move(smoother);
        req.pre_smooth = pre_smooth;
        req.post_smooth = post_smooth;
        req.max_cycles = max_cycles;
        req.tol = tol;
        req.full_multigrid = fmg;
        solve_report r;
        {
          nb::gil_scoped_release unlocked;
          r = multigrid_views(policy, req, f, u, k, bc);
        }
        nb::dict d;
        d["cycles"] = r.cycles;
        d["levels"] = r.levels;
        d["converged"] = r.converged;
        d["singular"] = r.singular;
        d["stop_reason"] = r.stop_reason;
        d["convergence_factor"] = r.convergence_factor;
        d["precision_floor"] = r.precision_floor;
        d["reference"] = r.reference;
        d["residuals"] = r.residuals;
        d["level_extents"] = r.level_extents;
        return d;
      },
      nb::arg("policy"), nb::arg("a"), nb::arg("b"), nb::arg("L").none(), nb::arg("h"), nb::arg("k").none(),
      nb::arg("f"), nb::arg("u"), nb::arg("boundary"), nb::arg("cycle"), nb::arg("smoother"), nb::arg("pre_smooth"),
      nb::arg("post_smooth"), nb::arg("max_cycles"), nb::arg("tol"), nb::arg("fmg"));
  m.def(
      "reduce",
      [](int which, const native_view& a, const native_view* b) {
        nb::gil_scoped_release unlocked;
        return reduce_views(which, a, b);
      },
      nb::arg("which"), nb::arg("a"), nb::arg("b").none());
  m.def("policies", [](bool device) {
#if TESSERA_ENABLE_CUDA
    return device ? cuda_policy_names() : host_policy_names();
#else
    return device ? std::vector<std::string>{} : host_policy_names();
#endif
  });
  m.def("cuda_devices", [] {
#if TESSERA_ENABLE_CUDA
    return ts::cuda::device_count();
#else
    return 0;
#endif
  });
  // The compute capability of the current device, (major, minor): what tessera._jit
  // compiles kernels for. (0, 0) without a device or in a build without CUDA.
  m.def("cuda_capability", [] {
#if TESSERA_ENABLE_CUDA
    if (ts::cuda::device_count() > 0) {
      const auto& l = ts::cuda::current_device_limits();
      return nb::make_tuple(l.compute_major, l.compute_minor);
    }
#endif
    return nb::make_tuple(0, 0);
  });
  m.attr("has_cuda") = built_with_cuda;
  m.attr("has_kokkos") = built_with_kokkos;
}
