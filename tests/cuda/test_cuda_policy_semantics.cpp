// The sweep semantics of tests/algorithms/test_semantics.cpp, for every CUDA policy:
// every interior point written (outputs start NaN-poisoned), no ghost cell written
// (ghost sentinels), the input left as it was, views of different ghost widths and row
// alignments, a user stream, an empty grid, and each bad input refused with its named
// exception naming the views.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <tuple>
#include <type_traits>

#include "../support/cuda_support.hpp"
#include "../support/foreign_memory.hpp"
#include "../support/fused_checks.hpp"
#include "../support/test_support.hpp"
#include "toy_strategy.hpp"

namespace ts = tessera;
namespace cu = tessera::cuda;
using namespace ts::test;

/// Every listed CUDA strategy (tessera/cuda/strategies.hpp, default tiles), a strategy
/// from outside the library joined to the list as a user would join one (toy_strategy.hpp:
/// its kernels are compiled in test_toy_strategy.cu), then cuda::automatic and
/// tessera::automatic.
template <class... Strategies>
std::tuple<Strategies..., cu::toy_rows<>, cu::automatic, ts::automatic> cuda_policies_of(ts::type_list<Strategies...>);
using cuda_policies = decltype(cuda_policies_of(cu::strategies{}));

namespace {


/// False where P's strategy has no kernel for shape S: its plan refuses the shape, naming it.
template <class P, class S>
constexpr bool serves_shape = [] {
  if constexpr (requires { P::template has_kernel<S>; }) return P::template has_kernel<S>;
  else return true;
}();

/// The refusal a sweep with P of shape S may raise: a row alignment it needs, or (where it
/// has no kernel for S) the shape.
template <class P, class S>
bool expected_refusal(const std::string& m) {
  return m.find("row alignment") != std::string::npos ||
         (!serves_shape<P, S> && m.find(ts::shape_name<S>()) != std::string::npos);
}

/// Sweeps with P on views of layouts `lin` / `lout` (out NaN-poisoned, ghost sentinels)
/// and checks the result against host::serial, the ghosts and the unchanged input. A
/// strategy may instead refuse the views with an unsupported_error naming the row
/// alignment it needs (or the shape it has no kernel for); returns false then.
template <class P, class S, class T>
bool sweeps_like_serial(const ts::layout<3>& lin, const ts::layout<3>& lout, std::uint64_t seed,
                        cudaStream_t stream = nullptr) {
  ts::View<T, 3> in_h("in", lin), out_h("out", lout), ref("ref", lout);
  fill_random(in_h, seed);
  poison(out_h);
  poison(ref);
  const auto st = random_stencil<S, T>(seed + 1);
  auto in = to_device(in_h, "in_d");
  auto out = to_device(out_h, "out_d");
  try {
    ts::apply(P{}, st, in, out, stream);
  } catch (const ts::unsupported_error& e) {
    const std::string m = e.what();
    CHECK_MESSAGE((expected_refusal<P, S>(m)), m);
    return false;
  }
  if (stream) REQUIRE(cudaStreamSynchronize(stream) == cudaSuccess);
  ts::apply(ts::host::serial{}, st, in_h, ref);
  const auto got = to_host(out);
  const auto c = ts::compare(got, ref);
  INFO(P::name(), " ", ts::shape_name<S>(), " in ", in.describe(), " out ", out.describe());
  CHECK(c.nonfinite == 0);  // no interior point left NaN
  CHECK(c.max_abs_error <= agreement_tolerance<T>() * ts::sweep_scale(st, in_h));
  CHECK(ghosts_changed(got) == 0);
  CHECK(ts::compare(to_host(in), in_h).max_abs_error == 0);  // the input is read only
  CHECK(ghosts_changed(to_host(in)) == ghosts_changed(in_h));
  return true;
}

/// sweeps_like_serial on device memory tessera does not own (View::wrap over a
/// cudaMalloc'd block of strided layout `l`, sentinels around and between its rows): also
/// nothing outside the layout's points written. Returns false where P refused the views
/// by their row alignment.
template <class P, class S, class T>
bool sweeps_foreign_device_memory(const ts::layout<3>& l, std::uint64_t seed) {
  device_block<T, 3> in_block(l), out_block(l);
  auto in = ts::View<T, 3, ts::CudaSpace>::wrap("in", in_block.first(), l);
  auto out = ts::View<T, 3, ts::CudaSpace>::wrap("out", out_block.first(), l);
  ts::View<T, 3> in_h("in_h", l), out_h("out_h", l);
  fill_random(in_h, seed);
  poison(out_h);
  ts::deep_copy(in, in_h);
  ts::deep_copy(out, out_h);
  const auto st = random_stencil<S, T>(seed + 1);
  try {
    ts::apply(P{}, st, in, out);
  } catch (const ts::unsupported_error& e) {
    const std::string m = e.what();
    CHECK_MESSAGE((expected_refusal<P, S>(m)), m);
    CHECK(in_block.foreign_changed() == 0);
    CHECK(out_block.foreign_changed() == 0);
    return false;
  }
  const auto in_owned = owned_copy(in_h, "in_owned");
  auto ref = owned_copy(out_h, "ref");
  ts::apply(ts::host::serial{}, st, in_owned, ref);
  ts::View<T, 3> got("got", l), in_after("in_after", l);
  ts::deep_copy(got, out);
  ts::deep_copy(in_after, in);
  const auto got_owned = owned_copy(got, "got_owned");
  INFO(P::name(), " ", ts::shape_name<S>(), " ", l.describe(), l.dense() ? " packed" : " with gaps");
  const auto c = ts::compare(got_owned, ref);
  CHECK(c.nonfinite == 0);
  CHECK(c.max_abs_error <= agreement_tolerance<T>() * ts::sweep_scale(st, in_owned));
  CHECK(ghosts_changed(got_owned) == 0);
  CHECK(ts::compare(owned_copy(in_after, "ia"), in_owned).max_abs_error == 0);
  CHECK(in_block.foreign_changed() == 0);
  CHECK(out_block.foreign_changed() == 0);
  return true;
}

}  // namespace

TEST_CASE_TEMPLATE_DEFINE("CUDA: foreign device memory, packed and with gaps between rows, swept in place", P,
                          foreign_device_memory) {
  TESSERA_REQUIRE_CUDA_DEVICE();
  const ts::extents<3> n{13, 9, 37};
  // Nothing promises 16-byte rows in foreign memory: the strategies that read or copy
  // whole 16-byte vectors refuse such views by name (and automatic passes them over);
  // every other policy serves them.
  constexpr bool needs_16_byte_rows = std::is_same_v<P, cu::vector_streaming<>> || std::is_same_v<P, cu::pipelined<>>;
  CHECK(sweeps_foreign_device_memory<P, ts::star<3, 1>, float>(gapped_layout<3>(n, 1, 0, 0), 31) ==
        !needs_16_byte_rows);
  CHECK(sweeps_foreign_device_memory<P, ts::star<3, 2>, float>(gapped_layout<3>(n, 2, 7, 13), 32) ==
        (!needs_16_byte_rows && serves_shape<P, ts::star<3, 2>>));
  CHECK(sweeps_foreign_device_memory<P, ts::star<3, 1>, double>(gapped_layout<3>(n, 3, 1, 5), 33) ==
        !needs_16_byte_rows);
}

TEST_CASE("CUDA: View::wrap refuses host memory as CudaSpace, by name") {
  TESSERA_REQUIRE_CUDA_DEVICE();
  const auto l = gapped_layout<2>(ts::extents{4, 4}, 1, 0);
  std::vector<float> host(static_cast<std::size_t>(l.span()));
  auto msg = message_of<ts::invalid_argument_error>(
      [&] { ts::View<float, 2, ts::CudaSpace>::wrap("h", host.data(), l); });
  CHECK(msg.find("'h'") != std::string::npos);
  CHECK(msg.find("not device memory") != std::string::npos);
  void* pinned_bytes = nullptr;
  REQUIRE(cudaMallocHost(&pinned_bytes, static_cast<std::size_t>(l.span()) * sizeof(float)) == cudaSuccess);
  auto* pinned = static_cast<float*>(pinned_bytes);
  msg = message_of<ts::invalid_argument_error>([&] { ts::View<float, 2, ts::CudaSpace>::wrap("p", pinned, l); });
  CHECK(msg.find("pinned host memory") != std::string::npos);
  cudaFreeHost(pinned);
  // device memory is accepted, and freed by its owner, not by the view
  device_block<float, 2> block(l);
  { auto v = ts::View<float, 2, ts::CudaSpace>::wrap("d", block.first(), l); CHECK_FALSE(v.owns_memory()); }
  CHECK(block.foreign_changed() == 0);
}

TEST_CASE("CUDA: iterate on gapped foreign device memory, fused and unfused, equals host::serial") {
  TESSERA_REQUIRE_CUDA_DEVICE();
  const ts::extents<3> n{21, 18, 45};
  const auto l = gapped_layout<3>(n, 1, 3, 29);
  // rows that do not start on 16-byte boundaries: temporal_blocking's box pass, which copies
  // whole vectors, gives way to its one-column pass
  REQUIRE(l.stride(1) % 4 != 0);
  const auto run_all = [&](const auto& st, const char* shape) {
    ts::View<float, 3> u_h("u_h", l);
    fill_random(u_h, 91);
    auto ru = owned_copy(u_h, "ru");
    ts::View<float, 3> rs("rs", ru.layout());
    ts::iterate_options<float, 3, ts::HostSpace> ropt;
    ropt.boundary = ts::boundary_conditions<3>::uniform(ts::boundary::dirichlet(0.25));
    const auto ref = ts::iterate(ts::host::serial{}, st, ru, rs, 9, ropt);
    const auto run = [&](auto policy) {
      device_block<float, 3> a(l), b(l);
      auto u = ts::View<float, 3, ts::CudaSpace>::wrap("u", a.first(), l);
      auto scratch = ts::View<float, 3, ts::CudaSpace>::wrap("scratch", b.first(), l);
      ts::deep_copy(u, u_h);
      ts::iterate_options<float, 3, ts::CudaSpace> opt;
      opt.boundary = ropt.boundary;
      const auto got = ts::iterate(policy, st, u, scratch, 9, opt);
      ts::View<float, 3> got_h("got_h", l);
      ts::deep_copy(got_h, got);
      INFO(decltype(policy)::name() << " " << shape);
      CHECK(ts::compare(owned_copy(got_h, "g"), ref).max_abs_error <= 1e-5);
      CHECK(a.foreign_changed() == 0);
      CHECK(b.foreign_changed() == 0);
    };
    run(cu::temporal_blocking<>{});
    run(cu::automatic{});
    run(cu::shared_streaming<>{});
  };
  run_all(ts::stencil(ts::star<3, 1>{}, {0.4f, 0.1f, 0.1f, 0.1f, 0.1f, 0.1f, 0.1f}), "7-point");
  run_all(ts::test::bounded_stencil<ts::box<3, 1>, float>(92, true), "27-point");
}

// Rows of whole 16-byte vectors with no padding beyond the ghosts, in an allocation that
// ends at the view's last cell: the vector holding a row's last ghost cell reaches past the
// view's last cell in the last row of the last plane, where the box pass must copy it cell
// by cell (compute-sanitizer's memcheck would see the read past the allocation), and beyond
// a Dirichlet face its vectors hold cells no output reads.
template <class T>
void check_box_on_memory_ending_at_last_cell(const ts::extents<3>& n, std::uint64_t seed) {
  constexpr ts::index_t v = 16 / sizeof(T);
  const int g = 1;
  const ts::index_t row = (n[2] + 2 * g + v - 1) / v * v;
  const auto l = ts::layout<3>::strided(n, g, {row * (n[1] + 2 * g), row, 1});
  REQUIRE(l.span() == (n[0] + 2 * g - 1) * l.stride(0) + (n[1] + 2 * g - 1) * l.stride(1) + n[2] + 2 * g);
  const ts::index_t pad = (v - l.origin_offset() % v) % v;  // so the interior's rows start on a vector
  struct exact_block {
    T* base = nullptr;
    explicit exact_block(std::size_t elements) {
      if (cudaMalloc(reinterpret_cast<void**>(&base), elements * sizeof(T)) != cudaSuccess)
        throw std::runtime_error("cudaMalloc failed");
    }
    exact_block(const exact_block&) = delete;
    exact_block& operator=(const exact_block&) = delete;
    ~exact_block() { cudaFree(base); }
  };
  exact_block a(static_cast<std::size_t>(pad + l.span())), b(static_cast<std::size_t>(pad + l.span()));
  ts::View<T, 3> u_h("u_h", l);
  fill_random(u_h, seed);
  const auto st = ts::test::bounded_stencil<ts::box<3, 1>, T>(seed + 1, true);
  ts::iterate_options<T, 3, ts::HostSpace> ropt;
  ropt.boundary = ts::boundary_conditions<3>::uniform(ts::boundary::dirichlet(T(0.5)));
  auto ru = owned_copy(u_h, "ru");
  ts::View<T, 3> rs("rs", ru.layout());
  const auto ref = ts::iterate(ts::host::serial{}, st, ru, rs, 5, ropt);
  auto u = ts::View<T, 3, ts::CudaSpace>::wrap("u", a.base + pad, l);
  auto scratch = ts::View<T, 3, ts::CudaSpace>::wrap("scratch", b.base + pad, l);
  REQUIRE(reinterpret_cast<std::uintptr_t>(u.accessor().origin) % 16 == 0);
  ts::deep_copy(u, u_h);
  ts::iterate_options<T, 3, ts::CudaSpace> opt;
  opt.boundary = ropt.boundary;
  const auto got = ts::iterate(cu::temporal_blocking<>{}, st, u, scratch, 5, opt);
  ts::View<T, 3> got_h("got_h", l);
  ts::deep_copy(got_h, got);
  INFO("extents " << n.to_string());
  CHECK(ts::compare(owned_copy(got_h, "g"), ref).max_abs_error <= (sizeof(T) == 8 ? 1e-12 : 2e-5));
}

TEST_CASE("fused steps: 3D boxes in register tiles on memory that ends at the view's last cell, small grids (the sanitizers' case)") {
  TESSERA_REQUIRE_CUDA_DEVICE();
  // the vector holding the last cell reaches 1, 1, 3 and 1 cells past it
  check_box_on_memory_ending_at_last_cell<double>(ts::extents<3>{4, 5, 6}, 61);
  check_box_on_memory_ending_at_last_cell<double>(ts::extents<3>{7, 3, 40}, 62);  // two tiles along x
  check_box_on_memory_ending_at_last_cell<float>(ts::extents<3>{5, 6, 8}, 63);
  check_box_on_memory_ending_at_last_cell<float>(ts::extents<3>{3, 40, 70}, 64);  // two tiles along x and y
}

TEST_CASE_TEMPLATE_DEFINE("CUDA: a sweep writes every interior point and no ghost cell", P, writes_interior_not_ghosts) {
  TESSERA_REQUIRE_CUDA_DEVICE();
  // ghost width 3 > radius 1: ghost cells beyond the shape's reach must survive too
  const ts::layout<3> l(ts::extents{13, 9, 37}, 3, ts::default_row_alignment<double>);
  CHECK(sweeps_like_serial<P, ts::star<3, 1>, double>(l, l, 5));
  const ts::layout<3> lf(ts::extents{11, 17, 70}, 2, ts::default_row_alignment<float>);
  CHECK(sweeps_like_serial<P, ts::star<3, 2>, float>(lf, lf, 7) == serves_shape<P, ts::star<3, 2>>);
}

TEST_CASE_TEMPLATE_DEFINE("CUDA: in and out may have different ghost widths and row alignments", P, mixed_ghosts_and_alignments) {
  TESSERA_REQUIRE_CUDA_DEVICE();
  const ts::extents<3> e{9, 14, 45};
  // 16-byte rows on both sides serve every strategy
  CHECK(sweeps_like_serial<P, ts::star<3, 1>, float>(ts::layout<3>(e, 3, 32), ts::layout<3>(e, 1, 4), 11));
  CHECK(sweeps_like_serial<P, ts::star<3, 1>, float>(ts::layout<3>(e, 1, 4), ts::layout<3>(e, 0, 32), 12));
  // unaligned rows: served, or refused by name (vector_streaming writes 16-byte vectors)
  const bool served = sweeps_like_serial<P, ts::star<3, 1>, float>(ts::layout<3>(e, 2, 32), ts::layout<3>(e, 0, 1), 13);
  if (std::is_same_v<P, cu::vector_streaming<>>) CHECK_FALSE(served);
  else CHECK(served);
}

TEST_CASE_TEMPLATE_DEFINE("CUDA: apply on a user stream", P, user_stream) {
  TESSERA_REQUIRE_CUDA_DEVICE();
  cudaStream_t s = nullptr;
  REQUIRE(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess);
  const ts::layout<3> l(ts::extents{19, 23, 31}, 1, 32);
  CHECK(sweeps_like_serial<P, ts::star<3, 1>, float>(l, l, 21, s));
  cudaStreamDestroy(s);
}

TEST_CASE_TEMPLATE_DEFINE("CUDA: an empty grid is a no-op", P, empty_grid) {
  TESSERA_REQUIRE_CUDA_DEVICE();
  ts::View<double, 3> in_h("in0", ts::extents{0, 5, 5}, 2), out_h("out0", in_h.layout());
  poison(out_h);
  auto in = to_device(in_h, "in0_d");
  auto out = to_device(out_h, "out0_d");
  CHECK_NOTHROW(ts::apply(P{}, random_stencil<ts::star<3, 2>, double>(8), in, out));
  CHECK(ghosts_changed(to_host(out)) == 0);
}

TEST_CASE_TEMPLATE_DEFINE("CUDA: bad input is refused with the named exception of the host policies", P, bad_input_refused) {
  TESSERA_REQUIRE_CUDA_DEVICE();
  const auto st = random_stencil<ts::star<3, 1>, double>(1);
  ts::View<double, 3, ts::CudaSpace> u("u", ts::extents{4, 5, 6}, 1);
  // aliasing, through a copy of the handle too
  auto msg = message_of<ts::aliasing_error>([&] { ts::apply(P{}, st, u, u); });
  CHECK(msg.find("'u'") != std::string::npos);
  CHECK(msg.find("share memory") != std::string::npos);
  ts::View<double, 3, ts::CudaSpace> alias = u;
  CHECK_THROWS_AS(ts::apply(P{}, st, u, alias), ts::aliasing_error);
  // mismatched extents name both views and both extents
  ts::View<double, 3, ts::CudaSpace> field("field", ts::extents{4, 5, 6}, 1), result("result", ts::extents{4, 6, 5}, 1);
  msg = message_of<ts::extent_mismatch_error>([&] { ts::apply(P{}, st, field, result); });
  CHECK(msg.find("'field'") != std::string::npos);
  CHECK(msg.find("'result'") != std::string::npos);
  CHECK(msg.find("4x6x5") != std::string::npos);
  CHECK(msg.find(P::name()) != std::string::npos);
  // a ghost layer narrower than the reach
  ts::View<double, 3, ts::CudaSpace> thin("thin", ts::extents{8, 8, 8}, 1), out2("out2", ts::extents{8, 8, 8}, 2);
  msg = message_of<ts::ghost_width_error>([&] { ts::apply(P{}, random_stencil<ts::star<3, 2>, double>(2), thin, out2); });
  CHECK(msg.find("'thin'") != std::string::npos);
  CHECK(msg.find("ghost >= 2") != std::string::npos);
  // an unallocated view
  ts::View<double, 3, ts::CudaSpace> none;
  msg = message_of<ts::invalid_argument_error>([&] { ts::apply(P{}, st, u, none); });
  CHECK(msg.find("the output is an unallocated") != std::string::npos);
}

TEST_CASE_TEMPLATE_APPLY(writes_interior_not_ghosts, cuda_policies);
TEST_CASE_TEMPLATE_APPLY(mixed_ghosts_and_alignments, cuda_policies);
TEST_CASE_TEMPLATE_APPLY(user_stream, cuda_policies);
TEST_CASE_TEMPLATE_APPLY(empty_grid, cuda_policies);
TEST_CASE_TEMPLATE_APPLY(bad_input_refused, cuda_policies);
TEST_CASE_TEMPLATE_APPLY(foreign_device_memory, cuda_policies);
