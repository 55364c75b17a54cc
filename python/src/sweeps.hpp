#pragma once
// The sweeps of one memory space behind the Python module's apply and iterate, written
// once for both spaces: sweeps_host.cpp and sweeps_cuda.cpp instantiate them with their
// policies.
#include <string>
#include <type_traits>

#include "dispatch.hpp"

namespace tessera::python {

template <int Rank>
void check_rank(const stencil_desc& d, const std::string& who, const std::string& view) {
  if (d.rank != Rank)
    throw invalid_argument_error(who + ": the stencil is " + std::to_string(d.rank) + "D (" + d.kind + " of radius " +
                                 std::to_string(d.radius) + ") but " + view + " is " + std::to_string(Rank) +
                                 "D; declare the stencil with rank=" + std::to_string(Rank));
}

/// Calls f(policy) with the policy named `name` among those for_each_policy offers;
/// false when none has that name.
template <class ForEachPolicy, class F>
bool with_named_policy(ForEachPolicy&& for_each_policy, const std::string& name, F&& f) {
  bool found = false;
  for_each_policy([&](auto p) {
    if (!found && decltype(p)::name() == name) {
      found = true;
      f(p);
    }
  });
  return found;
}

/// apply(policy named `name`, stencil d, in, out, extra...) for views of Space.
/// `extra(policy)` returns the trailing arguments' tuple for that policy (a stream).
template <class Space, class ForEachPolicy, class Sweep>
void apply_named(ForEachPolicy&& for_each_policy, const std::string& name, const stencil_desc& d,
                 const views_in<Space>& in, const views_in<Space>& out, Sweep&& sweep) {
  const std::string who = "tessera.apply(" + name + ")";
  with_view_pair<Space>(in, out, who, [&](const auto& i, const auto& o) {
    using V = std::decay_t<decltype(i)>;
    using T = typename V::value_type;
    constexpr int R = V::rank;
    check_rank<R>(d, who, i.describe());
    const bool found = with_named_policy(for_each_policy, name, [&](auto p) {
      with_shape<R>(d.kind, d.radius, [&](auto s) { sweep(p, make_stencil<decltype(s), T>(s, d), i, o); });
    });
    if (!found) unknown_policy(name, !Space::host_accessible);
  });
}

/// iterate(policy named `name`, stencil d, u, scratch, steps, boundary b); true when the
/// result is in u.
template <class Space, class ForEachPolicy>
bool iterate_named(ForEachPolicy&& for_each_policy, const std::string& name, const stencil_desc& d,
                   const views_in<Space>& u, const views_in<Space>& scratch, int steps, const boundary_desc& b) {
  const std::string who = "tessera.iterate(" + name + ")";
  bool in_u = true;
  with_view_pair<Space>(u, scratch, who, [&](const auto& uu, const auto& ss) {
    using V = std::decay_t<decltype(uu)>;
    using T = typename V::value_type;
    constexpr int R = V::rank;
    check_rank<R>(d, who, uu.describe());
    iterate_options<T, R, Space> opt;
    opt.boundary = to_conditions<R>(b);
    const bool found = with_named_policy(for_each_policy, name, [&](auto p) {
      with_shape<R>(d.kind, d.radius, [&](auto s) {
        const auto result = iterate(p, make_stencil<decltype(s), T>(s, d), uu, ss, steps, opt);
        in_u = result.data() == uu.data();
      });
    });
    if (!found) unknown_policy(name, !Space::host_accessible);
  });
  return in_u;
}

/// validate(policy named `name`, stencil d, in, tolerance): the sweep against Kokkos'.
/// tolerance < 0: validate's default for the element type.
template <class Space, class ForEachPolicy>
validation_desc validate_named(ForEachPolicy&& for_each_policy, const std::string& name, const stencil_desc& d,
                               const views_in<Space>& in, double tolerance) {
  const std::string who = "tessera.validate(" + name + ")";
#if !TESSERA_PYTHON_KOKKOS
  (void)for_each_policy, (void)d, (void)in, (void)tolerance;
  throw unsupported_error(who + ": this build of the module has no Kokkos, the reference validate compares "
                          "against; install Kokkos (Debian: libtrilinos-kokkos-dev) and rebuild");
#else
  validation_desc r;
  std::visit(
      [&](const auto& v) {
        using V = std::decay_t<decltype(v)>;
        using T = typename V::value_type;
        constexpr int R = V::rank;
        check_rank<R>(d, who, v.describe());
        const bool found = with_named_policy(for_each_policy, name, [&](auto p) {
          with_shape<R>(d.kind, d.radius, [&](auto s) {
            const auto st = make_stencil<decltype(s), T>(s, d);
            const auto rep = tolerance < 0 ? validate(p, st, v) : validate(p, st, v, tolerance);
            r = {rep.policy, rep.shape, rep.reference, rep.message, rep.tolerance, rep.scale, rep.scaled_error,
                 rep.result.max_abs_error, rep.passed};
          });
        });
        if (!found) unknown_policy(name, !Space::host_accessible);
      },
      in);
  return r;
#endif
}

}  // namespace tessera::python
