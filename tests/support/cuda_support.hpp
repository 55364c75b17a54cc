#pragma once
// CUDA test helpers: visible skipping where there is no device.
#include <doctest/doctest.h>

#include <string>

#include <tessera/tessera.hpp>

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
