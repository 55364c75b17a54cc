#pragma once
// CUDA test helpers: visible skipping where there is no device.
#include <doctest/doctest.h>

#include <tessera/tessera.hpp>

/// Ends the current test case with a visible skip when no CUDA device is present
/// (ctest's SKIP_REGULAR_EXPRESSION turns the message into a "skipped" result).
#define TESSERA_REQUIRE_CUDA_DEVICE()                                 \
  do {                                                                \
    if (tessera::cuda::device_count() == 0) {                         \
      MESSAGE("SKIPPED: no CUDA device");                             \
      return;                                                         \
    }                                                                 \
  } while (0)
