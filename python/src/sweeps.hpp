#pragma once
// The sweeps of one memory space behind the Python module's apply and iterate, written
// once for both spaces: sweeps_host_*.cpp and sweeps_cuda_*.cpp instantiate them with their
// policies.
#include <cstdlib>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "dispatch.hpp"

namespace tessera::python {

/// The policies the module offers for host (NumPy) arrays: host::serial, host::parallel,
/// kokkos::mdrange where the build has Kokkos, and automatic.
template <class F>
void for_each_host_policy(F&& f) {
  f(host::serial{});
  f(host::parallel{});
#if TESSERA_PYTHON_KOKKOS
  f(kokkos::mdrange{});
#endif
  f(automatic{});
}

/// The names of the policies for_each calls its argument with, in that order.
template <class ForEach>
std::vector<std::string> policy_names(ForEach&& for_each) {
  std::vector<std::string> v;
  for_each([&](auto p) { v.push_back(decltype(p)::name()); });
  return v;
}

template <int Rank>
void check_rank(const stencil_desc& d, const std::string& who, const std::string& view) {
  if (d.rank != Rank)
    throw invalid_argument_error(who + ": the stencil is " + std::to_string(d.rank) + "D (" + d.kind + " of radius " +
                                 std::to_string(d.radius) + ") but " + view + " is " + std::to_string(Rank) +
                                 "D; declare the stencil with rank=" + std::to_string(Rank));
}

/// A policy as Python names it: "host:parallel", or with settings of the policy's run-time
/// members, "host:parallel(num_threads=4,fuse=4)", "kokkos:mdrange(tile=4x8x64)".
struct policy_spec {
  std::string base;
  std::vector<std::pair<std::string, std::string>> settings;
};

inline policy_spec parse_policy(const std::string& text) {
  policy_spec spec;
  const auto open = text.find('(');
  spec.base = text.substr(0, open);
  if (open == std::string::npos) return spec;
  if (text.back() != ')')
    throw invalid_argument_error("tessera: policy '" + text + "' is not name or name(setting=value,...)");
  std::string body = text.substr(open + 1, text.size() - open - 2);
  std::size_t at = 0;
  while (at < body.size()) {
    const auto comma = body.find(',', at);
    const std::string item = body.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
    const auto eq = item.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == item.size())
      throw invalid_argument_error("tessera: policy '" + text + "': '" + item + "' is not setting=value");
    spec.settings.emplace_back(item.substr(0, eq), item.substr(eq + 1));
    if (comma == std::string::npos) break;
    at = comma + 1;
  }
  return spec;
}

/// A setting's value: an integer in [lo, hi], named in the error otherwise.
inline int setting_int(const std::string& policy, const std::string& key, const std::string& v, int lo, int hi) {
  char* end = nullptr;
  const long x = std::strtol(v.c_str(), &end, 10);
  if (v.empty() || *end != '\0' || x < lo || x > hi)
    throw invalid_argument_error("tessera: policy " + policy + ": " + key + "=" + v + " is not an integer in [" +
                                 std::to_string(lo) + ", " + std::to_string(hi) + "]");
  return static_cast<int>(x);
}

/// Sets p's run-time members from the spec's settings: num_threads and fuse
/// (host::parallel), tile (kokkos::mdrange, "AxBxC"). Anything else is refused by name; a
/// CUDA strategy's tiles are template arguments (tessera/_jit.py compiles those).
template <class P>
void configure(P& p, const policy_spec& spec) {
  for (const auto& [key, value] : spec.settings) {
    if constexpr (requires { p.num_threads; }) {
      if (key == "num_threads") {
        p.num_threads = setting_int(spec.base, key, value, 0, 4096);
        continue;
      }
    }
    if constexpr (requires { p.fuse; }) {
      if (key == "fuse") {
        p.fuse = setting_int(spec.base, key, value, 0, P::max_fuse);
        continue;
      }
    }
    if constexpr (requires { p.tile; }) {
      if (key == "tile") {
        std::size_t at = 0;
        for (std::size_t d = 0; d < p.tile.size(); ++d) {
          const auto x = value.find('x', at);
          p.tile[d] = setting_int(spec.base, key, value.substr(at, x == std::string::npos ? x : x - at), 0, 1 << 20);
          if (x == std::string::npos && d + 1 < p.tile.size())
            throw invalid_argument_error("tessera: policy " + spec.base + ": tile=" + value + " needs " +
                                         std::to_string(p.tile.size()) + " sizes, AxBxC");
          at = x + 1;
        }
        continue;
      }
    }
    throw invalid_argument_error("tessera: policy " + spec.base + " has no setting '" + key + "'" +
                                 (spec.base.rfind("cuda:", 0) == 0
                                      ? std::string("; a CUDA strategy's tiles are template arguments: spell "
                                                    "them as in C++, e.g. 'cuda:pipelined<64,4,4,2>', or "
                                                    "tessera.Policy('cuda:pipelined', tile=(64, 4, 4, 2)) "
                                                    "(compiled on first use)")
                                      : std::string("; host:parallel takes num_threads and fuse, kokkos:mdrange "
                                                    "takes tile=AxBxC")));
  }
}

/// Calls f(policy) with the policy named `name` (settings applied, see policy_spec) among
/// those for_each_policy offers; false when none has that name.
template <class ForEachPolicy, class F>
bool with_named_policy(ForEachPolicy&& for_each_policy, const std::string& name, F&& f) {
  const policy_spec spec = parse_policy(name);
  bool found = false;
  for_each_policy([&](auto p) {
    if (!found && decltype(p)::name() == spec.base) {
      found = true;
      configure(p, spec);
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
