// Probe: how much of a device ghost fill is the x faces? fill_ghosts with every face, with
// the x faces fixed (skipped), and with only the x faces (the others fixed); 512^3.
#include "tessera/algorithms/boundary_fill.hpp"
#include "tessera/cuda/detail/boundary_fill.hpp"
#include "tessera/cuda/memory_space.hpp"
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdio>
#include <vector>
namespace ts = tessera;
template <class T>
void probe(int g, ts::boundary face, const char* kind) {
  ts::View<T, 3, ts::CudaSpace> v("v", ts::extents<3>{512, 512, 512}, g);
  auto all = ts::boundary_conditions<3>::uniform(face);
  auto no_x = all;
  no_x.set(2, ts::boundary::fixed(), ts::boundary::fixed());
  auto only_x = ts::boundary_conditions<3>::uniform(ts::boundary::fixed());
  only_x.set(2, face, face);
  auto only_z = ts::boundary_conditions<3>::uniform(ts::boundary::fixed());
  only_z.set(0, face, face);
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  auto time = [&](const ts::boundary_conditions<3>& bc) {
    for (int i = 0; i < 5; ++i) ts::fill_ghosts(v, bc);
    std::vector<float> ms;
    for (int r = 0; r < 7; ++r) {
      cudaEventRecord(a);
      for (int i = 0; i < 20; ++i) ts::fill_ghosts(v, bc);
      cudaEventRecord(b);
      cudaEventSynchronize(b);
      float t = 0;
      cudaEventElapsedTime(&t, a, b);
      ms.push_back(t * 1000 / 20);
    }
    std::sort(ms.begin(), ms.end());
    return ms[3];
  };
  std::printf("%-6s %-9s g=%d: every face %6.1f us, x faces fixed %6.1f us, only x %6.1f us, only z %6.1f us\n",
              sizeof(T) == 4 ? "float" : "double", kind, g, time(all), time(no_x), time(only_x), time(only_z));
}
int main() {
  for (int g : {1, 2}) {
    probe<float>(g, ts::boundary::dirichlet(0.5), "dirichlet");
    probe<float>(g, ts::boundary::neumann(), "neumann");
    probe<double>(g, ts::boundary::dirichlet(0.5), "dirichlet");
  }
  auto p = ts::boundary::periodic();
  (void)p;
}
