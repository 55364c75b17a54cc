// Must not compile: a 3D shape applied to 2D views.
#include <tessera/tessera.hpp>
int main() {
  tessera::View<float, 2> in("in", tessera::extents{8, 8}, 1), out("out", tessera::extents{8, 8}, 1);
  auto st = tessera::stencil(tessera::star<3, 1>{}, {-6.f, 1.f, 1.f, 1.f, 1.f, 1.f, 1.f});
  tessera::apply(tessera::host::serial{}, st, in, out);
}
