#pragma once
// The argument checks every sweep performs before any backend runs, so that every policy
// rejects the same bad input with the same message.
#include <string>

#include "tessera/core/errors.hpp"
#include "tessera/core/fields.hpp"
#include "tessera/core/point_function.hpp"
#include "tessera/core/stencil.hpp"
#include "tessera/core/view.hpp"
#include "tessera/core/detail/view_checks.hpp"

namespace tessera::detail {

template <class S, class T, int Rank, class Space>
void check_sweep_arguments(const stencil<S, T>&, const View<T, Rank, Space>& in,
                           const View<T, Rank, Space>& out, const std::string& policy) {
  const std::string call = "tessera::apply(" + policy + ", " + shape_name<S>() + ")";
  require_allocated(in, call, "input");
  require_allocated(out, call, "output");
  const std::string who = call + ": ";
  // Aliasing: any overlap of the two allocations, not only the same pointer.
  const char* ib = reinterpret_cast<const char*>(in.data());
  const char* ob = reinterpret_cast<const char*>(out.data());
  if (ib < ob + out.allocation_bytes() && ob < ib + in.allocation_bytes())
    throw aliasing_error(who + "input " + in.describe() + " and output " + out.describe() +
                         " share memory; a sweep reads neighbours the same sweep would "
                         "overwrite, so use a second view (e.g. View(label, in.layout())) and "
                         "swap them between sweeps");
  if (!(in.extents() == out.extents()))
    throw extent_mismatch_error(who + "input " + in.describe() + " and output " +
                                out.describe() +
                                " have different interior extents; create the output with "
                                "the input's layout");
  using tr = shape_traits<S>;
  for (int d = 0; d < Rank; ++d) {
    if (in.ghost() < tr::radius_on(d))
      throw ghost_width_error(who + "input " + in.describe() + " has ghost width " +
                              std::to_string(in.ghost()) + " but the shape reaches " +
                              std::to_string(tr::radius_on(d)) + " cells along axis " +
                              std::to_string(d) + "; create the input with ghost >= " +
                              std::to_string(tr::radius));
  }
}

/// A point function's sweep: every view allocated; every input and output with the first
/// input's interior extents; input i's ghost width at least the function's reach for it;
/// no output sharing memory with an input or another output.
template <class F, class T, int Rank, class Space, std::size_t NI, std::size_t NO>
void check_point_sweep_arguments(const F&, const input_fields<T, Rank, Space, NI>& in,
                                 const output_fields<T, Rank, Space, NO>& out, const std::string& policy) {
  using R = typename F::reach_type;
  const std::string call = "tessera::apply(" + policy + ", point function)";
  for (std::size_t i = 0; i < NI; ++i)
    require_allocated(in[i], call, ("input field " + std::to_string(i)).c_str());
  for (std::size_t j = 0; j < NO; ++j)
    require_allocated(out[j], call, ("output field " + std::to_string(j)).c_str());
  const std::string who = call + ": ";
  const auto& n = in[0].extents();
  auto same_extents = [&](const View<T, Rank, Space>& v, const std::string& role) {
    if (!(v.extents() == n))
      throw extent_mismatch_error(who + role + " " + v.describe() + " and input field 0 " + in[0].describe() +
                                  " have different interior extents; every field of a point function sweep "
                                  "covers the same grid (create them with one extents value)");
  };
  for (std::size_t i = 1; i < NI; ++i) same_extents(in[i], "input field " + std::to_string(i));
  for (std::size_t j = 0; j < NO; ++j) same_extents(out[j], "output field " + std::to_string(j));
  for (std::size_t i = 0; i < NI; ++i)
    if (in[i].ghost() < R::radius[i])
      throw ghost_width_error(who + "input field " + std::to_string(i) + " " + in[i].describe() +
                              " has ghost width " + std::to_string(in[i].ghost()) +
                              " but the point function reads it at offsets up to " + std::to_string(R::radius[i]) +
                              " along each axis (entry " + std::to_string(i) + " of its reach<...>); create the view with ghost >= " +
                              std::to_string(R::radius[i]));
  auto overlap = [](const View<T, Rank, Space>& a, const View<T, Rank, Space>& b) {
    const char* ab = reinterpret_cast<const char*>(a.data());
    const char* bb = reinterpret_cast<const char*>(b.data());
    return ab < bb + b.allocation_bytes() && bb < ab + a.allocation_bytes();
  };
  for (std::size_t j = 0; j < NO; ++j) {
    for (std::size_t i = 0; i < NI; ++i)
      if (overlap(out[j], in[i]))
        throw aliasing_error(who + "output field " + std::to_string(j) + " " + out[j].describe() + " and input field " +
                             std::to_string(i) + " " + in[i].describe() +
                             " share memory; a sweep reads neighbours the same sweep would overwrite, so write "
                             "to a second view (View(label, in.layout())) and swap them between sweeps");
    for (std::size_t k = 0; k < j; ++k)
      if (overlap(out[j], out[k]))
        throw aliasing_error(who + "output fields " + std::to_string(k) + " " + out[k].describe() + " and " +
                             std::to_string(j) + " " + out[j].describe() + " share memory; give each output its own view");
  }
}

}  // namespace tessera::detail
