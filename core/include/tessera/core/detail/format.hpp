#pragma once
// Numbers in error messages and reports: four significant digits, in the shortest of
// fixed and scientific notation ("0.001953", "1.5e-07", "inf", "nan"). std::to_string
// prints six fixed decimals, which turns 1e-9 into "0.000000".
#include <cstdio>
#include <string>

namespace tessera::detail {

inline std::string sci(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.4g", v);
  return b;
}

}  // namespace tessera::detail
