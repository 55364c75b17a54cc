// Must not compile: a 3D field read with a 2D offset.
#include <tessera/tessera.hpp>
int main() {
  tessera::View<float, 3> u("u", tessera::extents{8, 8, 8}, 1), out("out", tessera::extents{8, 8, 8}, 1);
  auto fn = tessera::pointwise(tessera::reach<1>{}, [](auto f) { return f(tessera::off<0, 1>); });
  tessera::apply(tessera::host::serial{}, fn, u, out);
}
