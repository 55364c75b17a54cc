// Must not compile: div_k_grad reads two fields (reach<1, 1>) and is given one.
#include <tessera/tessera.hpp>
int main() {
  tessera::View<float, 3> u("u", tessera::extents{8, 8, 8}, 1), out("out", tessera::extents{8, 8, 8}, 1);
  tessera::apply(tessera::host::serial{}, tessera::physics::div_k_grad<float>{1}, u, out);
}
