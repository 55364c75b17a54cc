#pragma once
// The argument checks every sweep performs before any backend runs, so that every policy
// rejects the same bad input with the same message.
#include <string>

#include "tessera/core/errors.hpp"
#include "tessera/core/stencil.hpp"
#include "tessera/core/view.hpp"
#include "tessera/core/view_checks.hpp"

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

}  // namespace tessera::detail
