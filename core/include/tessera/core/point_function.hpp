#pragma once
// Point functions: a stencil written as code. A point function computes the output(s) at
// one grid point from neighbours of one or more input fields, each read through a window
// at constant offsets fixed at compile time:
//
//   // div(k grad u) with face-averaged conductivity, on a grid of spacing h
//   auto div_k_grad = tessera::pointwise(tessera::reach<1, 1>{},   // u and k: 1 point away
//       [=] TESSERA_HD (auto u, auto k) {
//         using tessera::off;
//         auto flux = [&](auto o) { return (k(o) + k()) * (u(o) - u()); };
//         return (flux(off<1, 0, 0>) + flux(off<-1, 0, 0>) + flux(off<0, 1, 0>) +
//                 flux(off<0, -1, 0>) + flux(off<0, 0, 1>) + flux(off<0, 0, -1>)) * (0.5f / (h * h));
//       });
//   tessera::apply(policy, div_k_grad, tessera::inputs(u, k), out);
//
// - The reach is declared per input field, in the order the function takes them:
//   reach<1, 1> says both fields are read at most 1 point away along every axis. apply
//   checks each input view's ghost width against it (the error names the view), and every
//   backend and kernel plans its halo from it. An offset beyond it does not compile:
//   field_window<T, Rank, Radius, Field> and offset_t<...> in the error name the field and
//   the offset.
// - Offsets have one component per axis, slowest first: off<dz, dy, dx> in 3D,
//   off<dy, dx> in 2D, off<dx> in 1D; u() is the point itself.
// - The function returns a T for one output, or tessera::array<T, M> for M outputs
//   (apply(policy, fn, inputs(...), outputs(a, b))).
// - It runs on the host, in Kokkos kernels and in CUDA kernels. A function object with a
//   TESSERA_HD template operator() runs everywhere. A lambda for CUDA views is marked
//   TESSERA_HD and names its windows' type, field<T, Rank, Radius> (nvcc's host-device
//   lambdas cannot be generic): [=] TESSERA_HD (tessera::field<float, 3, 1> u) {...};
//   host-only code may write (auto u). It must be trivially copyable: capture values,
//   not references or views. (With an upstream Kokkos built for CUDA, kokkos::mdrange runs
//   it on the device too: there even host views need a TESSERA_HD function.)
// - A function may throw on the host: host::serial and host::parallel hand the exception to
//   the caller (the output is then partly written). One declared noexcept runs in the
//   host loops' `omp simd` form, vectorised.
//
// A function object can carry its reach itself instead of being wrapped:
//   struct upwind { using reach_type = tessera::reach<1, 0>; float dt_h;
//                   template <class Q, class V> TESSERA_HD float operator()(Q q, V v) const; };
#include <concepts>
#include <cstddef>
#include <type_traits>
#include <utility>

#include "tessera/core/array.hpp"
#include "tessera/core/config.hpp"

namespace tessera {

/// A constant offset from the point being computed, one component per axis (slowest
/// first). Passed as the value off<dz, dy, dx> so that no `.template` is needed inside
/// generic lambdas.
template <int... D>
struct offset_t {
  static constexpr int rank = static_cast<int>(sizeof...(D));
};
template <int... D>
inline constexpr offset_t<D...> off{};

/// How far a point function reads each of its input fields, in points along every axis,
/// one entry per field in the order the function takes them.
template <int... R>
struct reach {
  static_assert(sizeof...(R) >= 1, "tessera::reach: list one radius per input field (reach<1> for one field)");
  static_assert(((R >= 0) && ...), "tessera::reach: a radius is a number of points, 0 or more");
  static constexpr int fields = static_cast<int>(sizeof...(R));
  static constexpr array<int, sizeof...(R)> radius{{R...}};
  /// The largest radius over the fields: the halo a kernel that stages every field alike needs.
  static constexpr int max = [] {
    int m = 0;
    ((m = R > m ? R : m), ...);
    return m;
  }();
};

namespace detail {
template <class R>
struct is_reach : std::false_type {};
template <int... R>
struct is_reach<reach<R...>> : std::true_type {};

/// Fails to compile, with the field and the offset in the instantiation trace, unless
/// offset_t<D...> is a valid read of field `Field` of rank Rank and declared radius Radius.
template <int Field, int Rank, int Radius, int... D>
TESSERA_HD constexpr void check_offset() {
  // Field: the input's position (-1: a window named by a non-generic lambda)
  static_assert(sizeof...(D) == Rank,
                "tessera: a field is read with an offset of the wrong rank; give one component per axis of the "
                "field (off<dz, dy, dx> in 3D, off<dy, dx> in 2D, off<dx> in 1D)");
  static_assert(((D <= Radius && -D <= Radius) && ...),
                "tessera: the point function reads input field `Field` (see field_window<T, Rank, Radius, Field> "
                "in this error) at offset offset_t<...> beyond the reach it declared; widen that field's "
                "entry in reach<...> (and its view's ghost width)");
}
}  // namespace detail

/// A point function: Reach per input field and a callable, called once per output point
/// with one window per input field. Built by pointwise().
template <class Reach, class F>
struct point_function {
  static_assert(detail::is_reach<Reach>::value, "tessera::point_function: the first argument is a tessera::reach<...>");
  using reach_type = Reach;
  F f;
  template <class... W>
  TESSERA_HD constexpr decltype(auto) operator()(const W&... w) const noexcept(noexcept(f(w...))) {
    static_assert(sizeof...(W) == Reach::fields,
                  "tessera::point_function: called with a number of fields different from its reach<...>");
    return f(w...);
  }
};

/// pointwise(reach<R...>{}, f): the point function computing f(field windows...) at every
/// output point, reading input field i at most R_i points away.
template <int... R, class F>
constexpr point_function<reach<R...>, F> pointwise(reach<R...>, F f) {
  return {f};
}

namespace detail {
/// Whether a callable travels by value into kernels and loops: trivially copyable, or, in
/// a translation unit compiled by nvcc with --extended-lambda (a .cu file, or any file built
/// by Kokkos' nvcc_wrapper), a __host__ __device__ lambda. nvcc turns such a lambda into an
/// __nv_hdl_wrapper_t, which is not trivially copyable when it captures anything, though
/// kernels take it by value (as Kokkos' KOKKOS_LAMBDA).
template <class F>
constexpr bool copies_by_value() {
#if defined(__CUDACC_EXTENDED_LAMBDA__)
  if constexpr (__nv_is_extended_host_device_lambda_closure_type(F)) return true;
#endif
  return std::is_trivially_copyable_v<F>;
}
template <class F>
struct travels_by_value : std::bool_constant<copies_by_value<F>()> {};
template <class Reach, class F>
struct travels_by_value<point_function<Reach, F>> : travels_by_value<F> {};
}  // namespace detail

/// A point function: a callable that names its reach and travels by value (trivially
/// copyable, or a __host__ __device__ lambda in a CUDA translation unit).
template <class F>
concept point_function_type = detail::travels_by_value<F>::value && requires {
  typename F::reach_type;
  requires detail::is_reach<typename F::reach_type>::value;
};

/// The strides a window keeps: one per axis before the last (the last is contiguous).
template <int Rank>
using window_strides = array<index_t, (Rank > 1 ? Rank - 1 : 1)>;

/// The window through which a point function reads one input field around the point
/// being computed: the element at the point and the strides of the axes before the last
/// (the last is contiguous). Every backend hands the function these windows, pointing
/// into its own memory (a view, a staged Kokkos view, a tile in shared memory).
/// Field is the field's position among the inputs, carried so that a read beyond the
/// reach names it; field<T, Rank, Radius> (Field = -1) is the type to name in a
/// non-generic lambda (nvcc's __host__ __device__ lambdas cannot be generic):
///   [=] TESSERA_HD (tessera::field<float, 3, 1> u, tessera::field<float, 3, 1> k) { ... }
template <class T, int Rank, int Radius, int Field = -1>
struct field_window {
  const T* at = nullptr;          // the element at the point
  window_strides<Rank> stride{};  // elements, axes 0 .. Rank-2

  field_window() = default;
  TESSERA_HD constexpr field_window(const T* p, const window_strides<Rank>& s) noexcept : at(p), stride(s) {}
  /// A backend's window (which knows its field's position) as the window a lambda names.
  template <int F>
    requires(Field == -1 && F != -1)
  TESSERA_HD constexpr field_window(const field_window<T, Rank, Radius, F>& w) noexcept : at(w.at), stride(w.stride) {}

  /// The field at offset off<D...> from the point.
  template <int... D>
  TESSERA_HD T operator()(offset_t<D...>) const noexcept {
    detail::check_offset<Field, Rank, Radius, D...>();
    constexpr int d[] = {D...};
    index_t o = d[Rank - 1];
    for (int a = 0; a + 1 < Rank; ++a) o += d[a] * stride[a];
    return at[o];
  }
  /// The field at the point.
  TESSERA_HD T operator()() const noexcept { return *at; }
};

/// The window type to name in a non-generic lambda: field<float, 3, 1> is a 3D float
/// field read at most 1 point away (the radius must equal the reach declared for it).
template <class T, int Rank, int Radius>
using field = field_window<T, Rank, Radius>;

namespace detail {

/// The number of outputs a point function's result fills: M for tessera::array<T, M>, else 1.
template <class R>
struct result_count : std::integral_constant<int, 1> {};
template <class T, std::size_t M>
struct result_count<array<T, M>> : std::integral_constant<int, static_cast<int>(M)> {};

/// Output j of a result: the value itself for one output, element j of an array.
template <int J, class R>
TESSERA_HD constexpr auto result_at(const R& r) {
  if constexpr (result_count<R>::value == 1 && !std::is_class_v<R>)
    return r;
  else
    return r[J];
}

/// fn(windows...) for input pointers `at` (each at the point) and strides `stride`; the
/// windows carry each field's index and declared radius.
template <class T, int Rank, class F, std::size_t NI, std::size_t... I>
TESSERA_HD constexpr auto call_point_function(const F& fn, const T* const (&at)[NI],
                                             const window_strides<Rank> (&stride)[NI],
                                             std::index_sequence<I...>) {
  using R = typename F::reach_type;
  return fn(field_window<T, Rank, R::radius[I], static_cast<int>(I)>{at[I], stride[I]}...);
}

}  // namespace detail
}  // namespace tessera
