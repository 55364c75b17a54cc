// The README's example, verbatim from the first #include line on (checked by
// tests/readme_example.cmake): declare a grid and a 7-point stencil, sweep it with two
// strategies, validate against the Kokkos reference, and do the same on the GPU when the
// build has the CUDA backend and the machine has a device.
#include <cstdio>
#include <tessera/tessera.hpp>
namespace ts = tessera;

int main() {
  ts::View<float, 3> u("u", ts::extents{64, 64, 64}, /*ghost=*/2), v("v", u.layout());
  for (int z = -2; z < 66; ++z)  // fill the interior and the ghosts
    for (int y = -2; y < 66; ++y)
      for (int x = -2; x < 66; ++x) u(z, y, x) = 0.5f * x - 0.25f * y * z;

  auto lap = ts::stencil(ts::star<3, 1>{}, {-6.f, 1.f, 1.f, 1.f, 1.f, 1.f, 1.f});
  auto d2x = ts::fd::second_derivative<3, /*order=*/4>(/*axis=*/2, /*h=*/0.1f);

  ts::apply(ts::host::serial{}, lap, u, v);    // one sweep; ghost cells are never written
  ts::apply(ts::host::parallel{}, lap, u, v);  // same sweep, another strategy
  auto report = ts::validate(ts::host::parallel{}, d2x, u);  // against Kokkos

#if TESSERA_ENABLE_CUDA                // built with the CUDA backend (nvcc found)...
  if (ts::cuda::device_count() > 0) {  // ...and a GPU present: the same on the device
    ts::View<float, 3, ts::CudaSpace> ud("u_d", u.layout()), vd("v_d", u.layout());
    ts::deep_copy(ud, u);
    ts::apply(ts::cuda::register_tiled<32, 32>{}, lap, ud, vd);
    report = ts::validate(ts::cuda::automatic{}, d2x, ud);
  }
#endif
  std::printf("lap(u) at the centre = %g; d2/dx2 on %s %s with Kokkos%s\n", v(32, 32, 32),
              report.policy.c_str(), report.passed ? "agrees" : "does NOT agree", report.message.c_str());
  return report.passed ? 0 : 1;
}
