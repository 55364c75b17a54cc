// Point functions on CUDA views, continued (test_cuda_point_function.cu has the physics
// kernels, lambdas and 1D on every policy): tiles, chunks and reaches, rows off 16 bytes,
// automatic's choices. Compiled by nvcc: the kernels are instantiated here. Each policy's
// own lowering: test_cuda_point_function_lowerings.cu (a unit of its own, so that neither
// takes a minute to compile).
#include "point_function_checks.hpp"

namespace {
/// Fields of different radii (0, 2, 1) and ghost widths wider than the radii: the
/// pipelined kernel's copy schedule runs each field's planes at its own lead, the ring and
/// tiled kernels stage each field with its own halo, and the streaming kernel prefetches
/// each field's plane beyond its own reach.
struct mixed_reach {
  using reach_type = ts::reach<0, 2, 1>;
  template <class A, class B, class C>
  TESSERA_HD float operator()(const A& a, const B& b, const C& c) const {
    return a() * (b(off<2, 0, 0>) - b(off<-2, 0, 0>) + b(off<0, 2, -2>) - b(off<0, -2, 2>) + 0.5f * b(off<-1, 1, 1>)) +
           c(off<1, 1, 1>) * c(off<-1, -1, -1>) - c(off<0, -1, 1>) + b();
  }
};
}  // namespace

TEST_CASE_TEMPLATE("cuda point functions: tiles, chunks and reaches agree with host::serial and the Kokkos reference", P,
                   ts::cuda::pipelined<>, ts::cuda::pipelined<64, 4, 1, 1>, ts::cuda::pipelined<32, 8, 0, 3, 3>,
                   ts::cuda::pipelined<0, 0, 0, 0, 1>, ts::cuda::pipelined<64, 2, 3, 2, 5>,
                   ts::cuda::pipelined<128, 4, 4, 1, 4>, ts::cuda::streaming<>, ts::cuda::streaming<32, 8, 3>,
                   ts::cuda::streaming<16, 2, 1>, ts::cuda::streaming<128, 1, 64>, ts::cuda::vector_streaming<>,
                   ts::cuda::vector_streaming<1, 3>, ts::cuda::vector_streaming<8, 1>, ts::cuda::shared_streaming<>,
                   ts::cuda::shared_streaming<16, 4, 3, 5>, ts::cuda::shared_streaming<64, 2, 1, 1>,
                   ts::cuda::coarsened<16, 8, 3>, ts::cuda::tiled<8, 4, 2>, ts::cuda::register_tiled<16, 4, 2>) {
  TESSERA_REQUIRE_CUDA_DEVICE();
  // extents not multiples of the tiles; 5 planes: fewer than one chunk of most tiles
  for (const auto& n : {ts::extents<3>{13, 21, 45}, ts::extents<3>{5, 3, 7}, ts::extents<3>{70, 17, 33}}) {
    ts::View<float, 3> a("a", n, 0), b("b", n, 3), c("c", n, 1), ref("mixed", n, 1);
    fill_random(a, 21);
    fill_random(b, 22);
    fill_random(c, 23);
    INFO(n.to_string());
    check_against_host<P>(mixed_reach{}, ts::inputs(a, b, c), ts::outputs(ref), 1e-5);
  }
  {  // 2D, a field of radius 3 and one of radius 1, width not a multiple of the tile
    const ts::extents<2> n{301, 517};
    ts::View<float, 2> u("u", n, 3), v("v", n, 2), ref("r", n, 0);
    fill_random(u, 24);
    fill_random(v, 25);
    const auto fn = ts::pointwise(ts::reach<3, 1>{}, [] TESSERA_HD(ts::field<float, 2, 3> f, ts::field<float, 2, 1> g) {
      return f(off<3, 0>) - f(off<0, -3>) + 2.0f * f(off<-2, 1>) - g(off<1, -1>) * g(off<-1, 0>) + f();
    });
    check_against_host<P>(fn, ts::inputs(u, v), ts::outputs(ref), 1e-5);
  }
}

TEST_CASE("cuda point functions: pipelined's default tile follows the function's reach, and runs as planned") {
  TESSERA_REQUIRE_CUDA_DEVICE();
  // two fields one point beyond (the 128 x 2 x 4-row tile, whole-line halos) and a third
  // (the 32 x 8 x 2-row tile); grids narrower, shorter and wider than a tile, x ends
  // inside a line, fewer planes than a chunk
  for (const auto& n : {ts::extents<3>{7, 5, 9}, ts::extents<3>{33, 19, 131}, ts::extents<3>{70, 45, 300}}) {
    INFO(n.to_string());
    ts::View<float, 3> u("u", n, 1), k("k", n, 2), w("w", n, 1), ref("div_k_grad", n, 1), ref3("three", n, 0);
    fill_random(u, 51);
    fill_random(k, 52);
    fill_random(w, 53);
    check_against_host<ts::cuda::pipelined<>>(ts::physics::div_k_grad<float>{3.0f}, ts::inputs(u, k), ts::outputs(ref),
                                              1e-5);
    CHECK(ts::cuda::last_launch().plan.strategy == "pipelined");
    CHECK((ts::cuda::last_launch().block[0] == 128 && ts::cuda::last_launch().block[1] == 2));
    const auto three = ts::pointwise(
        ts::reach<1, 1, 1>{}, [] TESSERA_HD(ts::field<float, 3, 1> a, ts::field<float, 3, 1> b, ts::field<float, 3, 1> c) {
          return a(off<1, 0, 0>) * b(off<0, -1, 0>) - c(off<0, 0, 1>) + a(off<-1, 1, -1>) * c();
        });
    check_against_host<ts::cuda::pipelined<>>(three, ts::inputs(u, k, w), ts::outputs(ref3), 1e-5);
    CHECK((ts::cuda::last_launch().block[0] == 32 && ts::cuda::last_launch().block[1] == 8));
  }
}

TEST_CASE("cuda point functions: automatic runs naive on small grids, pipelined on large ones where it claims the "
          "function (streaming where it refuses the rows), the rest on streaming") {
  TESSERA_REQUIRE_CUDA_DEVICE();
  // a grid below naive's bound, one between the bounds, one at pipelined's
  constexpr std::size_t naive_below = ts::cuda::naive<>::automatic_points_below;
  constexpr std::size_t pipelined_from = ts::cuda::pipelined<>::automatic_points_from;
  const ts::extents<3> small{21, 30, 43}, medium{101, 103, 107}, large{256, 256, 256};
  REQUIRE(small.size() < naive_below);
  REQUIRE((medium.size() >= naive_below && medium.size() < pipelined_from));
  REQUIRE(large.size() >= pipelined_from);
  struct expected {
    ts::extents<3> n;
    const char* div_k_grad_rows_on_16_bytes;  // what runs div(k grad u) (pipelined claims it)
    const char* other;                        // what runs it on rows off 16 bytes, and the acoustic step
  };
  for (const expected& e : {expected{small, "naive", "naive"}, expected{medium, "streaming", "streaming"},
                            expected{large, "pipelined", "streaming"}}) {
    const auto& n = e.n;
    INFO("grid " << n.to_string());
    ts::View<float, 3> k("k", n, 1), ref("r", n, 1);
    fill_random(k, 61);
    for (const int row_alignment : {1, 4}) {  // floats: 4 bytes (pipelined refuses), 16 bytes
      INFO("row alignment " << row_alignment);
      ts::View<float, 3> u("u", ts::layout<3>(n, 1, row_alignment));
      fill_random(u, 65);
      check_against_host<ts::cuda::automatic>(ts::physics::div_k_grad<float>{2.0f}, ts::inputs(u, k),
                                              ts::outputs(ref), 1e-5);
      CHECK(ts::cuda::last_launch().policy == "cuda:automatic");
      CHECK(ts::cuda::last_launch().plan.strategy == (row_alignment == 4 ? e.div_k_grad_rows_on_16_bytes : e.other));
    }
    if (n.size() >= pipelined_from) continue;  // the acoustic step runs on streaming from the medium grid on
    ts::View<float, 3> up("u_prev", n, 0), u4("u", n, 4), c2("c2", n, 0), out("acoustic", n, 0);
    fill_random(up, 62);
    fill_random(u4, 63);
    fill_random(c2, 64);
    check_against_host<ts::cuda::automatic>(ts::physics::acoustic_step<float>{0.04f}, ts::inputs(up, u4, c2),
                                            ts::outputs(out), 1e-5);
    CHECK(ts::cuda::last_launch().plan.strategy == std::string(e.other));
  }
}

TEST_CASE("cuda point functions: pipelined refuses rows off 16 bytes by name, vector_streaming and streaming run "
          "them, automatic runs naive on this small grid") {
  TESSERA_REQUIRE_CUDA_DEVICE();
  const ts::extents<3> n{9, 10, 11};
  const auto fn = ts::physics::div_k_grad<double>{10.0};
  ts::View<double, 3> k_h("k", n, 1);
  fill_random(k_h, 32);
  const auto k = to_device(k_h, "k_d");
  for (const int row_alignment : {1, 16}) {  // elements: 8 bytes (refused by pipelined), 128 bytes
    INFO("row alignment " << row_alignment);
    ts::View<double, 3> u_h("u", ts::layout<3>(n, 1, row_alignment)), ref("div_k_grad", n, 1);
    fill_random(u_h, 31);
    ts::apply(ts::host::serial{}, fn, ts::inputs(u_h, k_h), ts::outputs(ref));
    const auto u = to_device(u_h, "u_d");
    ts::View<double, 3> poisoned("out", ref.layout());
    poison(poisoned);
    const auto out = to_device(poisoned, "out_d");
    const bool aligned = row_alignment == 16;
    const auto why = message_of<ts::unsupported_error>(
        [&] { ts::apply(ts::cuda::pipelined<>{}, fn, ts::inputs(u, k), ts::outputs(out)); });
    if (aligned) {
      CHECK(why == "(no exception)");
      CHECK(max_relative_error(to_host(out), ref) <= 1e-12);
      poison(poisoned);
      ts::deep_copy(out, poisoned);
    } else {
      CHECK(why.find("cuda:pipelined") != std::string::npos);
      CHECK(why.find("u_d") != std::string::npos);
      CHECK(why.find("cuda::naive") != std::string::npos);
    }
    // vector_streaming reads and writes point by point (a lane's columns 32 apart): any row alignment
    ts::View<double, 3> odd_out("out_odd_rows", ts::layout<3>(n, 1, row_alignment));
    poison(odd_out);
    const auto odd_rows = to_device(odd_out, "out_odd_rows_d");
    ts::apply(ts::cuda::vector_streaming<>{}, fn, ts::inputs(u, k), ts::outputs(odd_rows));
    CHECK(ts::cuda::last_launch().plan.strategy == "vector_streaming");
    CHECK(max_relative_error(to_host(odd_rows), ref) <= 1e-12);
    CHECK(ghosts_changed(to_host(odd_rows)) == 0);
    // streaming, automatic's point default, takes any rows: 32 x 8 threads, 4 planes a block in fp64
    ts::apply(ts::cuda::streaming<>{}, fn, ts::inputs(u, k), ts::outputs(out));
    CHECK(ts::cuda::last_launch().plan.strategy == "streaming");
    CHECK(ts::cuda::last_launch().block[0] == 32);
    CHECK(ts::cuda::last_launch().plan.chunk == 4);
    auto got = to_host(out);
    CHECK(max_relative_error(got, ref) <= 1e-12);
    CHECK(ghosts_changed(got) == 0);
    poison(poisoned);
    ts::deep_copy(out, poisoned);
    // automatic on a grid this small: naive (one thread a point)
    ts::apply(ts::cuda::automatic{}, fn, ts::inputs(u, k), ts::outputs(out));
    CHECK(ts::cuda::last_launch().plan.strategy == "naive");
    got = to_host(out);
    CHECK(max_relative_error(got, ref) <= 1e-12);
    CHECK(ghosts_changed(got) == 0);
  }
}

TEST_CASE("cuda point functions: automatic runs naive in 1D and on small 2D grids, streaming's defaults on larger "
          "ones") {
  TESSERA_REQUIRE_CUDA_DEVICE();
  const auto bilap = ts::pointwise(ts::reach<2>{}, [] TESSERA_HD(ts::field<float, 1, 2> f) {
    return f(off<-2>) - 4 * f(off<-1>) + 6 * f() - 4 * f(off<1>) + f(off<2>);
  });
  ts::View<float, 1> u1("u", ts::extents<1>{777}, 2), ref1("r", ts::extents<1>{777}, 0);
  fill_random(u1, 41);
  check_against_host<ts::cuda::automatic>(bilap, ts::inputs(u1), ts::outputs(ref1), 1e-5);
  CHECK(ts::cuda::last_launch().plan.strategy == "naive");
  for (const ts::extents<2> n : {ts::extents<2>{1000, 301}, ts::extents<2>{1000, 1061}}) {  // rows not a multiple of the chunk (8)
    const bool small = n.size() < ts::cuda::naive<>::automatic_points_below;
    INFO("grid " << n.to_string());
    ts::View<float, 2> q("q", n, 1), vy("vy", n, 0), vx("vx", n, 0), ref("advected", n, 1);
    fill_random(q, 42);
    fill_random(vy, 43);
    fill_random(vx, 44);
    check_against_host<ts::cuda::automatic>(ts::physics::upwind_advection<float>{0.3f}, ts::inputs(q, vy, vx),
                                            ts::outputs(ref), 1e-5);
    const auto& launch = ts::cuda::last_launch();
    CHECK(launch.plan.strategy == (small ? "naive" : "streaming"));
    if (small) continue;
    CHECK(launch.block[0] == 256);
    CHECK(launch.block[1] == 1);
    CHECK(launch.grid[1] == (1000 + 7) / 8);
  }
}
