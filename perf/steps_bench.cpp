// tessera-bench's time-stepping sections (steps_bench.hpp): iterate with each boundary
// kind, and fused passes (cuda::temporal_blocking) against one sweep a step, each row checked
// against the same steps with cuda::naive. Compiled at -O1 like bench.cpp
// (perf/CMakeLists.txt): it only orchestrates library instances.
#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include <tessera/tessera.hpp>

#include "bench_fields.hpp"
#include "gpu_events.hpp"
#include "median.hpp"
#include "steps_bench.hpp"
#include "variants.hpp"

namespace ts = tessera;
namespace cu = tessera::cuda;

namespace {

using tessera::bench::events;
using tessera::bench::median;
using tessera::bench::options;
using tessera::bench::patterned_field;
using tessera::bench::result;
using tessera::bench::summarise;
using tessera::bench::tile_arguments;

/// What the iterate and fused sections share: the initial field (weights summing to 1, so
/// the field stays bounded over the steps), two views for the timed policy and two for the
/// cuda::naive reference.
template <class S, class T, int Rank>
struct stepping_case {
  ts::View<T, Rank, ts::HostSpace> init;
  ts::View<T, Rank, ts::CudaSpace> u, scratch, ref_u, ref_scratch;
  ts::stencil<S, T> st;
  explicit stepping_case(const ts::extents<Rank>& e)
      : init(patterned_field<T>(e, ts::shape_traits<S>::radius)),
        u("u", init.layout()),
        scratch("scratch", init.layout()),
        ref_u("ref_u", init.layout()),
        ref_scratch("ref_scratch", init.layout()) {
    for (int k = 0; k < st.size; ++k) st[k] = static_cast<T>(1.0 / st.size);
  }
  using options_type = ts::iterate_options<T, Rank, ts::CudaSpace>;
  /// iterate(policy) for `steps` steps from the initial field in both of a and b.
  template <class P>
  ts::View<T, Rank, ts::CudaSpace> run(P policy, const ts::View<T, Rank, ts::CudaSpace>& a,
                                       const ts::View<T, Rank, ts::CudaSpace>& b, int steps,
                                       const options_type& io) const {
    ts::deep_copy(a, init);
    ts::deep_copy(b, init);
    return ts::iterate(policy, st, a, b, steps, io);
  }
  /// Milliseconds per step of iterate(policy) on (u, scratch) from the initial field, timed
  /// `reps` times by CUDA events (the copies of the initial field outside the timing).
  template <class P>
  std::vector<double> per_step_ms(P policy, int steps, const options_type& io, int reps) const {
    events ev;
    std::vector<double> t;
    for (int k = 0; k < reps; ++k) {
      ts::deep_copy(u, init);
      ts::deep_copy(scratch, init);
      cudaEventRecord(ev.a);
      ts::iterate(policy, st, u, scratch, steps, io);
      cudaEventRecord(ev.b);
      t.push_back(ev.elapsed_ms() / steps);
    }
    return t;
  }
};

/// iterate: `steps` sweeps of cuda::automatic ping-ponging between two views, with no
/// boundary fill and with each boundary kind on every face, per step against the
/// one-sweep floor: a step moves at least 2 * points * sizeof(T) bytes, so the fraction
/// of the copy bandwidth is also GCell-updates/s over the floor (copy GB/s / (2 sizeof T)).
/// Every row is checked against the same iterate with cuda::naive. The row's time is the
/// default (launch_graphs unset: step graphs where graphs_pay_off says so). one_by_one: also
/// time each row with launch_graphs = true and false, with overlapped launches off
/// (cuda::allow_overlapped_launches), and with both, for the note.
template <class S, class T, int Rank>
void run_iterate_case(const options& opt, const ts::extents<Rank>& e, double copy_gbs, std::vector<result>& out,
                      bool& all_agree, bool one_by_one = false) {
  // checked over 100 steps; timed over 1000 on small grids (one_by_one), so that a step of
  // ~6 us is not lost in the noise of a 0.6 ms event interval (run 15)
  const int steps = opt.smoke ? 3 : 100, timed_steps = one_by_one ? 1000 : steps;
  const stepping_case<S, T, Rank> c0(e);
  const double points = static_cast<double>(e.size());
  const double ideal = 2.0 * points * sizeof(T);
  // Every face one kind; then, to tell the faces' costs apart, periodic everywhere but
  // Dirichlet on the fastest axis, and Dirichlet everywhere but periodic on it.
  struct kind_case {
    const char* name;
    std::optional<ts::boundary_conditions<Rank>> bc;
  };
  using bcs = ts::boundary_conditions<Rank>;
  const auto dirichlet = ts::boundary::dirichlet(0.5), periodic = ts::boundary::periodic();
  std::vector<kind_case> kinds = {{"none", std::nullopt},
                                  {"dirichlet", bcs::uniform(dirichlet)},
                                  {"periodic", bcs::uniform(periodic)},
                                  {"neumann", bcs::uniform(ts::boundary::neumann())}};
  if (!opt.smoke) {
    kinds.push_back({"periodic,dirichlet-x", bcs::uniform(periodic).set(Rank - 1, dirichlet, dirichlet)});
    kinds.push_back({"dirichlet,periodic-x", bcs::uniform(dirichlet).set(Rank - 1, periodic, periodic)});
  }
  for (const kind_case& kc : kinds) {
    ts::iterate_options<T, Rank, ts::CudaSpace> io;
    io.boundary = kc.bc;
    result r;
    r.shape = ts::shape_name<S>(), r.precision = sizeof(T) == 4 ? "float" : "double", r.size = e.to_string();
    r.policy = std::string("iterate:") + kc.name + " cuda:automatic";
    r.note = std::to_string(timed_steps) + " steps, per step";
    const auto got = c0.run(cu::automatic{}, c0.u, c0.scratch, steps, io);  // warm-up and correctness
    const auto want = c0.run(cu::naive<>{}, c0.ref_u, c0.ref_scratch, steps, io);
    const auto c = ts::compare(got, want);
    if (!c.passed(ts::default_tolerance<T>())) {
      all_agree = false;
      r.note = "MISMATCH vs naive: rel " + std::to_string(c.max_rel_error);
    }
    if (!opt.smoke) {
      const int reps = one_by_one ? std::max(5, opt.reps / 2) : std::max(3, opt.reps / 4);
      summarise(r, c0.per_step_ms(cu::automatic{}, timed_steps, io, reps), points, ideal, copy_gbs);
      if (one_by_one) {  // the same steps with step graphs, and with launches not overlapped
        auto graphs = io, no_graphs = io;  // io: launch_graphs unset, graphs where they pay
        graphs.launch_graphs = true;
        no_graphs.launch_graphs = false;
        const double with_graphs = median(c0.per_step_ms(cu::automatic{}, timed_steps, graphs, reps));
        const double without_graphs = median(c0.per_step_ms(cu::automatic{}, timed_steps, no_graphs, reps));
        // calls of 100 steps: does a call's recording and instantiation pay back?
        const double short_default = median(c0.per_step_ms(cu::automatic{}, 100, no_graphs, reps));
        const double short_graphs = median(c0.per_step_ms(cu::automatic{}, 100, graphs, reps));
        cu::allow_overlapped_launches(false);
        const double serial = median(c0.per_step_ms(cu::automatic{}, timed_steps, no_graphs, reps));
        const double serial_graphs = median(c0.per_step_ms(cu::automatic{}, timed_steps, graphs, reps));
        cu::allow_overlapped_launches(true);
        char buf[300];
        std::snprintf(buf, sizeof buf,
                      "; step graphs on %.4f ms, off %.4f ms; launches not overlapped %.4f ms, with step graphs "
                      "%.4f ms; calls of 100 steps %.4f ms, with step graphs %.4f ms",
                      with_graphs, without_graphs, serial, serial_graphs, short_default, short_graphs);
        r.note += buf;
      }
      // a fused pass of one step a step (cuda::temporal_blocking<1>, built for the 7-point
      // star): the faces' rules inside the pass, so no fill runs between steps (a Dirichlet
      // face's ghosts are filled once)
      if constexpr (std::is_same_v<S, ts::star<3, 1>>) {
        if (one_by_one && kc.bc) {
          const double one_step_passes =
              median(c0.per_step_ms(ts::bench::tb_1{}, timed_steps, io, std::max(5, opt.reps / 2)));
          char buf[96];
          std::snprintf(buf, sizeof buf, "; a 1-step fused pass a step %.4f ms", one_step_passes);
          r.note += buf;
        }
      }
      if (kc.bc) {  // one fill alone, for the note
        events ev;
        std::vector<double> f;
        for (int k = 0; k < 5; ++k) {
          cudaEventRecord(ev.a);
          for (int j = 0; j < 10; ++j) ts::fill_ghosts(c0.u, *kc.bc);
          cudaEventRecord(ev.b);
          f.push_back(ev.elapsed_ms() / 10);
        }
        char buf[64];
        std::snprintf(buf, sizeof buf, "; one fill %.4f ms", median(f));
        r.note += buf;
      }
    }
    r.ran = true;
    out.push_back(r);
  }
}

/// Fused time stepping: `steps` steps with Dirichlet faces, cuda::automatic one sweep per
/// step against temporal_blocking with several steps per pass, in GCell-updates/s and
/// against the one-sweep floor (copy GB/s / (2 sizeof T), the rate of a sweep that moves
/// each point once in and once out, measured in the same run): the `fraction` column is
/// that multiple. Every row is checked against iterate with cuda::naive.
template <class S, class T, class... Fused, int Rank>
void run_fused_case(const options& opt, const ts::extents<Rank>& e, double copy_gbs, std::vector<result>& out,
                    bool& all_agree, bool periodic = false) {
  if (!opt.fused_only.empty() && (ts::shape_name<S>() + " " + e.to_string()).find(opt.fused_only) == std::string::npos)
    return;
  const int steps = opt.smoke ? 7 : 100;
  const stepping_case<S, T, Rank> c0(e);
  const double points = static_cast<double>(e.size());
  ts::iterate_options<T, Rank, ts::CudaSpace> io;
  io.boundary = ts::boundary_conditions<Rank>::uniform(periodic ? ts::boundary::periodic() : ts::boundary::dirichlet(0.5));
  const auto want = c0.run(cu::naive<>{}, c0.ref_u, c0.ref_scratch, steps, io);
  auto time_policy = [&](auto policy, int k) {
    using P = decltype(policy);
    result r;
    r.shape = ts::shape_name<S>(), r.precision = sizeof(T) == 4 ? "float" : "double", r.size = e.to_string();
    r.shape_class = cu::shape_class_of<S>::name, r.rank = S::rank, r.radius = ts::shape_traits<S>::radius;
    r.policy = std::string(periodic ? "fused:periodic " : "fused:dirichlet ") + P::name();
    if constexpr (!std::is_same_v<P, cu::automatic>) r.policy += tile_arguments(policy);
    r.note = std::to_string(steps) + " steps, " + std::to_string(k) + " per pass; x floor";
    if constexpr (!std::is_same_v<P, cu::automatic>) {  // a grid a strategy does not hold: say so, time nothing
      const auto plan = P::template plan_steps<S, T>(e, cu::current_device_limits(), k);
      if (!plan.ok()) {
        r.note = "refused: " + plan.reason;
        out.push_back(r);
        return;
      }
    }
    const auto got = c0.run(policy, c0.u, c0.scratch, steps, io);
    const auto c = ts::compare(got, want);
    if (!c.passed(ts::default_tolerance<T>() * 10)) {
      all_agree = false;
      r.note = "MISMATCH vs naive: rel " + std::to_string(c.max_rel_error);
    }
    if (!opt.smoke)  // per step: GCell-updates/s in gcells, the multiple of the one-sweep floor in fraction
      summarise(r, c0.per_step_ms(policy, steps, io, std::max(3, opt.reps / 4)), points, 2.0 * points * sizeof(T),
                copy_gbs);
    r.ran = true;
    out.push_back(r);
  };
  // what automatic fuses here (1: a sweep a step), from its fusion table
  time_policy(cu::automatic{}, std::max(1, cu::fused_steps(cu::automatic{}, c0.st, e, io.boundary)));
  (time_policy(Fused{}, std::min(steps, Fused::template tile<S>::steps)), ...);
}

}  // namespace

namespace tessera::bench {

void run_iterate_section(const options& opt, double copy_gbs, std::vector<result>& rs, bool& agree) {
  if (opt.smoke) {
    run_iterate_case<ts::star<3, 1>, float>(opt, ts::extents<3>{19, 23, 29}, copy_gbs, rs, agree);
    run_iterate_case<ts::star<2, 1>, double>(opt, ts::extents<2>{37, 41}, copy_gbs, rs, agree);
  } else if ((opt.quick || opt.iterate) && !opt.fused) {
    run_iterate_case<ts::star<3, 1>, float>(opt, ts::extents<3>{512, 512, 512}, copy_gbs, rs, agree);
    run_iterate_case<ts::star<3, 1>, float>(opt, ts::extents<3>{256, 256, 256}, copy_gbs, rs, agree);
    run_iterate_case<ts::star<3, 1>, double>(opt, ts::extents<3>{384, 384, 384}, copy_gbs, rs, agree);
    // small grids, where launches cost as much as the sweep: step graphs against none
    run_iterate_case<ts::star<3, 1>, float>(opt, ts::extents<3>{160, 160, 160}, copy_gbs, rs, agree, true);
    run_iterate_case<ts::star<3, 1>, float>(opt, ts::extents<3>{128, 128, 128}, copy_gbs, rs, agree, true);
    run_iterate_case<ts::star<3, 1>, double>(opt, ts::extents<3>{128, 128, 128}, copy_gbs, rs, agree, true);
  }
}

void run_fused_section(const options& opt, double copy_gbs, std::vector<result>& rs, bool& agree) {
  // the cases of the fused-steps targets (perf/RESULTS.md)
  namespace tb = ts::bench;
  using tb_default = cu::temporal_blocking<>;
  if (opt.smoke) {
    run_fused_case<ts::star<3, 1>, float, tb_default>(opt, ts::extents<3>{19, 37, 29}, copy_gbs, rs, agree);
    run_fused_case<ts::star<2, 1>, double, tb_default>(opt, ts::extents<2>{37, 600}, copy_gbs, rs, agree);
  } else if (opt.quick || opt.fused) {
    const ts::extents<3> e{512, 512, 512};
    run_fused_case<ts::star<3, 1>, float, tb::tb_2, tb::tb_3, tb_default, tb::tb_3_64x32, tb::tb_4_64x32>(
        opt, e, copy_gbs, rs, agree);
    run_fused_case<ts::star<3, 1>, double, tb::tb_2, tb::tb_3, tb_default, tb::tb_3_64x32, tb::tb_4_64x32>(
        opt, e, copy_gbs, rs, agree);
    run_fused_case<ts::star<3, 2>, float, tb_default, tb::tb_3>(opt, e, copy_gbs, rs, agree);
    run_fused_case<ts::box<3, 1>, float, tb_default, tb::tb_3, tb::tb_2_columns>(opt, e, copy_gbs, rs, agree);
    run_fused_case<ts::star<2, 1>, float, tb::tb_4, tb::tb_2d_6, tb_default, tb::tb_2d_8x128x4>(
        opt, ts::extents<2>{8192, 8192}, copy_gbs, rs, agree);
    run_fused_case<ts::star<2, 1>, double, tb::tb_4, tb::tb_2d_6, tb_default>(opt, ts::extents<2>{8192, 8192},
                                                                             copy_gbs, rs, agree);
    run_fused_case<ts::star<3, 1>, float, tb::tb_2, tb::tb_3, tb_default, tb::tb_3_64x32, tb::tb_4_64x32>(
        opt, ts::extents<3>{256, 256, 256}, copy_gbs, rs, agree);
    run_fused_case<ts::star<3, 1>, float, tb::tb_2, tb::tb_3, tb_default, cu::persistent<>, tb::ps_6x4, tb::ps_8x2>(
        opt, ts::extents<3>{192, 192, 192}, copy_gbs, rs, agree);
    // grids that fit on chip: cuda::persistent keeps them there across its steps
    using ps = cu::persistent<>;
    for (const bool periodic : {false, true})
      run_fused_case<ts::star<3, 1>, float, tb_default, ps, tb::ps_6x4, tb::ps_8x2>(
          opt, ts::extents<3>{160, 160, 160}, copy_gbs, rs, agree, periodic);
    run_fused_case<ts::star<3, 1>, float, tb_default, ps, tb::ps_6x4, tb::ps_8x2>(opt, ts::extents<3>{128, 128, 128},
                                                                                  copy_gbs, rs, agree);
    run_fused_case<ts::star<3, 1>, float, tb_default, ps, tb::ps_6x4, tb::ps_8x2>(opt, ts::extents<3>{64, 64, 64},
                                                                                  copy_gbs, rs, agree);
    run_fused_case<ts::star<3, 1>, double, tb_default, ps, tb::ps_6x4, tb::ps_8x2>(opt, ts::extents<3>{128, 128, 128},
                                                                                   copy_gbs, rs, agree);
    run_fused_case<ts::box<3, 1>, double, tb_default, tb::tb_3, tb::tb_2_columns>(opt, e, copy_gbs, rs, agree);
    run_fused_case<ts::box<2, 1>, float, tb::tb_4, tb::tb_2d_6, tb_default>(opt, ts::extents<2>{8192, 8192},
                                                                            copy_gbs, rs, agree);
    run_fused_case<ts::box<2, 1>, double, tb::tb_4, tb::tb_2d_6, tb_default>(opt, ts::extents<2>{8192, 8192},
                                                                             copy_gbs, rs, agree);
  }
}

void run_fused_user_case(const options& opt, double copy_gbs, std::vector<result>& rs, bool& agree) {
  const auto& c = opt.user;
  auto try_shape = [&]<class S>() {
    if constexpr (S::rank >= 2) {
      if (cu::shape_class_of<S>::name != c.shape_class || S::rank != c.rank || ts::shape_traits<S>::radius != c.radius)
        return;
      ts::extents<S::rank> e{};
      for (int d = 0; d < S::rank; ++d) e[d] = static_cast<ts::index_t>(c.n[d]);
      // beside the default: other steps where variants.hpp instantiates them, and persistent
      // where it has a kernel (the 7-point; it says when the grid does not fit)
      const bool periodic = opt.periodic_faces;
      auto run_in = [&]<class T>() {
        namespace tb = ts::bench;
        if constexpr (std::is_same_v<S, ts::star<3, 1>>)
          run_fused_case<S, T, tb::tb_2, tb::tb_3, cu::temporal_blocking<>, cu::persistent<>>(opt, e, copy_gbs, rs,
                                                                                             agree, periodic);
        else if constexpr (std::is_same_v<S, ts::star<3, 2>>)
          run_fused_case<S, T, cu::temporal_blocking<>, tb::tb_3>(opt, e, copy_gbs, rs, agree, periodic);
        else if constexpr (std::is_same_v<S, ts::box<3, 1>>)
          run_fused_case<S, T, tb::tb_3, cu::temporal_blocking<>>(opt, e, copy_gbs, rs, agree, periodic);
        else
          run_fused_case<S, T, cu::temporal_blocking<>>(opt, e, copy_gbs, rs, agree, periodic);
      };
      if (c.is_double) run_in.template operator()<double>();
      else run_in.template operator()<float>();
    }
  };
#define TESSERA_BENCH_TRY_SHAPE(unused, ...) try_shape.template operator()<__VA_ARGS__>();
  TESSERA_FOR_EACH_BUILTIN_SHAPE(TESSERA_BENCH_TRY_SHAPE, 0)
#undef TESSERA_BENCH_TRY_SHAPE
}

}  // namespace tessera::bench
