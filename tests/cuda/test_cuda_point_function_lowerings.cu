// Point functions on CUDA views, continued from test_cuda_point_function_tiles.cu: each
// policy runs its own lowering (the launch it records), and a tile beyond shared memory is
// refused by name. Compiled by nvcc: the kernels are instantiated here.
#include "point_function_checks.hpp"

namespace {
/// The launch the last apply made: its strategy and block.
void check_launch(const std::string& strategy, int bx, int by, int bz) {
  const auto& launch = ts::cuda::last_launch();
  CHECK(launch.plan.strategy == strategy);
  CHECK(launch.block[0] == bx);
  CHECK(launch.block[1] == by);
  CHECK(launch.block[2] == bz);
}
}  // namespace

TEST_CASE("cuda point functions: every policy runs its own lowering, a tile beyond shared memory is refused by name") {
  TESSERA_REQUIRE_CUDA_DEVICE();
  const ts::extents<3> n{30, 20, 40};
  ts::View<float, 3> u_h("u", n, 1), k_h("k", n, 1), ref("div_k_grad", n, 0);
  fill_random(u_h, 51);
  fill_random(k_h, 52);
  const auto fn = ts::physics::div_k_grad<float>{10.0f};
  check_against_host<ts::cuda::tiled<>>(fn, ts::inputs(u_h, k_h), ts::outputs(ref), 1e-5);
  check_launch("tiled", 8, 8, 8);  // the block is the output tile: both fields staged as 10^3
  CHECK(ts::cuda::last_launch().plan.shared_bytes == 2 * 10 * 10 * 10 * sizeof(float));
  check_against_host<ts::cuda::coarsened<>>(fn, ts::inputs(u_h, k_h), ts::outputs(ref), 1e-5);
  check_launch("coarsened", 32, 32, 1);
  CHECK(ts::cuda::last_launch().plan.chunk == 32);
  // rings of 2R + 2 = 4 slots plus 2R = 2 copies of 34 x 34 planes, two fields
  CHECK(ts::cuda::last_launch().plan.shared_bytes == 2 * 6 * 34 * 34 * sizeof(float));
  check_against_host<ts::cuda::shared_streaming<>>(fn, ts::inputs(u_h, k_h), ts::outputs(ref), 1e-5);
  check_launch("shared_streaming", 32, 8, 1);
  CHECK(ts::cuda::last_launch().plan.out_tile[1] == 16);  // 2 rows a thread
  check_against_host<ts::cuda::register_tiled<>>(fn, ts::inputs(u_h, k_h), ts::outputs(ref), 1e-5);
  check_launch("register_tiled", 32, 32, 1);
  CHECK(ts::cuda::last_launch().plan.chunk == 32);
  check_against_host<ts::cuda::temporal_blocking<>>(fn, ts::inputs(u_h, k_h), ts::outputs(ref), 1e-5);
  check_launch("temporal_blocking", 32, 32, 1);
  {  // coarsened in 1D stages its tile as tiled does, 256 threads a block (its 1D tile width)
    ts::View<double, 1> u1("u1", ts::extents<1>{1000}, 2), r1("r1", ts::extents<1>{1000}, 0);
    fill_random(u1, 53);
    const auto bilap = ts::pointwise(ts::reach<2>{}, [] TESSERA_HD(ts::field<double, 1, 2> f) {
      return f(off<-2>) - 4 * f(off<-1>) + 6 * f() - 4 * f(off<1>) + f(off<2>);
    });
    check_against_host<ts::cuda::coarsened<>>(bilap, ts::inputs(u1), ts::outputs(r1), 1e-13);
    check_launch("coarsened", 256, 1, 1);
    CHECK(ts::cuda::last_launch().plan.shared_bytes == (256 + 4) * sizeof(double));
  }

  // shared_streaming<64, 8, 2> on doubles with a radius-4 field: a ring of 18 planes of
  // (64 + 8) x (16 + 8) doubles, 243 KiB; refused with the fix where the device allows less
  const ts::extents<3> m{12, 12, 12};
  ts::View<double, 3, ts::CudaSpace> up("u_prev_d", m, 0), u("u_d", m, 4), c2("c2_d", m, 0), out("out_d", m, 0);
  const std::size_t bytes = 18 * 72 * 24 * sizeof(double);
  const auto why = message_of<ts::unsupported_error>([&] {
    ts::apply(ts::cuda::shared_streaming<64, 8, 2>{}, ts::physics::acoustic_step<double>{0.04}, ts::inputs(up, u, c2),
              ts::outputs(out));
  });
  if (bytes > ts::cuda::current_device_limits().shared_per_block_optin) {
    CHECK(why.find("cuda:shared-streaming") != std::string::npos);
    CHECK(why.find("shared memory") != std::string::npos);
    CHECK(why.find("smaller tile") != std::string::npos);
  } else {
    CHECK(why == "(no exception)");
  }
}
