#pragma once
// CUDA test helpers: copies to and from the device, a checked sweep, visible skipping
// where there is no device.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>

#include <tessera/tessera.hpp>

#include "test_support.hpp"

namespace tessera::test {
/// A device copy of a host view (same layout, ghosts included), labelled `label`.
template <class T, int Rank>
View<T, Rank, CudaSpace> to_device(const View<T, Rank>& h, const std::string& label) {
  View<T, Rank, CudaSpace> d(label, h.layout());
  deep_copy(d, h);
  return d;
}
/// A host copy of a device view, labelled after it.
template <class T, int Rank>
View<T, Rank> to_host(const View<T, Rank, CudaSpace>& d) {
  View<T, Rank> h(d.label() + "_h", d.layout());
  deep_copy(h, d);
  return h;
}
/// Runs Policy's sweep of a random stencil of shape S over random device data into a
/// poisoned output, checks it against host::serial (finite, within the agreement tolerance,
/// ghosts untouched) and returns the sweep's launch record (block, grid, plan).
template <class Policy, class S, class T>
cuda::launch_record sweep_and_check(const extents<S::rank>& e, std::uint64_t seed = 7) {
  View<T, S::rank> in_h("in", e, shape_traits<S>::radius), out_h("out", in_h.layout()), ref("ref", in_h.layout());
  fill_random(in_h, seed);
  poison(out_h);
  const auto st = random_stencil<S, T>(seed + 1);
  const auto in = to_device(in_h, "in_d");
  const auto out = to_device(out_h, "out_d");
  apply(Policy{}, st, in, out);
  const auto record = cuda::last_launch();
  deep_copy(out_h, out);
  apply(host::serial{}, st, in_h, ref);
  const auto c = compare(out_h, ref);
  CHECK(c.nonfinite == 0);
  CHECK(c.max_abs_error <= agreement_tolerance<T>() * sweep_scale(st, in_h));
  CHECK(ghosts_changed(out_h) == 0);
  return record;
}
}  // namespace tessera::test

/// Ends the current test case with a visible skip when no CUDA device is present
/// (ctest's SKIP_REGULAR_EXPRESSION turns the message into a "skipped" result).
#define TESSERA_REQUIRE_CUDA_DEVICE()                                 \
  do {                                                                \
    if (tessera::cuda::device_count() == 0) {                         \
      MESSAGE("SKIPPED: no CUDA device");                             \
      return;                                                         \
    }                                                                 \
  } while (0)
