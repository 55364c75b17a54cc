// Must not compile: the input fields of one sweep have different ranks.
#include <tessera/tessera.hpp>
int main() {
  tessera::View<float, 3> u("u", tessera::extents{8, 8, 8}, 1), out("out", tessera::extents{8, 8, 8}, 1);
  tessera::View<float, 2> k("k", tessera::extents{8, 8}, 1);
  tessera::apply(tessera::host::serial{}, tessera::physics::div_k_grad<float>{1}, tessera::inputs(u, k), out);
}
