// Must not compile: a 7-point star given 6 coefficients (count known at compile time).
#include <tessera/tessera.hpp>
int main() {
  auto st = tessera::stencil(tessera::star<3, 1>{}, {-6.f, 1.f, 1.f, 1.f, 1.f, 1.f});
  return static_cast<int>(st[0]);
}
