#pragma once
// tessera::physics' ready-made point functions behind the Python module, written once for
// both memory spaces (physics_host.cpp, physics_cuda.cu instantiate it with their policies).
#include <string>
#include <type_traits>
#include <vector>

#include "sweeps.hpp"

namespace tessera::python {

/// apply(policy named `name`, physics kernel `kernel` with its one parameter, inputs `in`,
/// output `out`). Kernels: acoustic_step (u_prev, u, c2; 3D; dt2_h2),
/// damped_acoustic_step (u_prev, u, c2, s; 3D; dt2_h2), div_k_grad (u, k; 3D; inv_h2),
/// upwind_advection (q, vy, vx; 2D; dt_h).
template <class Space, class ForEachPolicy>
void physics_named(ForEachPolicy&& for_each_policy, const std::string& name, const std::string& kernel,
                   double parameter, const std::vector<const views_in<Space>*>& in, const views_in<Space>& out) {
  const std::string who = "tessera.physics." + kernel + "(" + name + ")";
  std::visit(
      [&](const auto& o) {
        using V = std::decay_t<decltype(o)>;
        using T = typename V::value_type;
        constexpr int R = V::rank;
        auto field = [&](std::size_t i) -> const V& {
          const V* v = std::get_if<V>(in[i]);
          if (!v)
            throw extent_mismatch_error(who + ": input field " + std::to_string(i) + " and the output " +
                                        o.describe() + " differ in element type or rank");
          return *v;
        };
        auto need = [&](int rank, std::size_t fields) {
          if (R != rank || in.size() != fields)
            throw invalid_argument_error(who + ": takes " + std::to_string(fields) + " " + std::to_string(rank) +
                                         "D input fields, got " + std::to_string(in.size()) + " and " +
                                         o.describe());
        };
        auto run = [&](const auto& fn, const auto& inputs_) {
          const bool found = with_named_policy(for_each_policy, name, [&](auto p) { apply(p, fn, inputs_, o); });
          if (!found) unknown_policy(name, !Space::host_accessible);
        };
        const T c = static_cast<T>(parameter);
        if (kernel == "acoustic_step") {
          need(3, 3);
          if constexpr (R == 3) run(physics::acoustic_step<T>{c}, inputs(field(0), field(1), field(2)));
        } else if (kernel == "damped_acoustic_step") {
          need(3, 4);
          if constexpr (R == 3)
            run(physics::damped_acoustic_step<T>{c}, inputs(field(0), field(1), field(2), field(3)));
        } else if (kernel == "div_k_grad") {
          need(3, 2);
          if constexpr (R == 3) run(physics::div_k_grad<T>{c}, inputs(field(0), field(1)));
        } else if (kernel == "upwind_advection") {
          need(2, 3);
          if constexpr (R == 2) run(physics::upwind_advection<T>{c}, inputs(field(0), field(1), field(2)));
        } else {
          throw invalid_argument_error("tessera.physics: no kernel '" + kernel +
                                       "'; there are acoustic_step, damped_acoustic_step, div_k_grad and "
                                       "upwind_advection");
        }
      },
      out);
}

void physics_host(const std::string& policy, const std::string& kernel, double parameter,
                  const std::vector<const views_in<HostSpace>*>& in, const views_in<HostSpace>& out);
#if TESSERA_ENABLE_CUDA
void physics_cuda(const std::string& policy, const std::string& kernel, double parameter,
                  const std::vector<const views_in<CudaSpace>*>& in, const views_in<CudaSpace>& out);
#endif

}  // namespace tessera::python
