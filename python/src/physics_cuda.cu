// tessera::physics' point functions on device (CuPy) arrays for the Python module:
// cuda::automatic and automatic. Their kernels are instantiated here, so nvcc compiles
// this unit (in python/CMakeLists.txt's tessera_python_cuda).
#include "physics.hpp"

namespace tessera::python {

void physics_cuda(const std::string& policy, const std::string& kernel, double parameter,
                  const std::vector<const views_in<CudaSpace>*>& in, const views_in<CudaSpace>& out) {
  physics_named<CudaSpace>(
      [](auto&& f) {
        f(cuda::automatic{});
        f(automatic{});
      },
      policy, kernel, parameter, in, out);
}

}  // namespace tessera::python
