// Must not compile: the function returns two values and one output view is given.
#include <tessera/tessera.hpp>
int main() {
  tessera::View<float, 2> u("u", tessera::extents{8, 8}, 1), out("out", tessera::extents{8, 8}, 1);
  auto fn = tessera::pointwise(tessera::reach<0>{}, [](auto f) { return tessera::array<float, 2>{{f(), -f()}}; });
  tessera::apply(tessera::host::serial{}, fn, u, out);
}
