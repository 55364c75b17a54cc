// Must not compile: the point function declares reach 1 for its field and reads 2 away.
#include <tessera/tessera.hpp>
int main() {
  tessera::View<float, 2> u("u", tessera::extents{8, 8}, 2), out("out", tessera::extents{8, 8}, 1);
  auto fn = tessera::pointwise(tessera::reach<1>{}, [](auto f) { return f(tessera::off<0, 2>) - f(); });
  tessera::apply(tessera::host::serial{}, fn, u, out);
}
