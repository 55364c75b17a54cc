// multigrid_solve of device (CuPy) arrays for the Python module: cuda::automatic and
// automatic. Multigrid's sweeps are point functions whose kernels are instantiated here,
// so nvcc compiles this unit (python/CMakeLists.txt builds it into its own library).
#include "solvers.hpp"

namespace tessera::python {

solve_report multigrid_cuda(const std::string& policy, const solve_request& req, const views_in<CudaSpace>& f,
                            const views_in<CudaSpace>& u, const views_in<CudaSpace>* k, const boundary_desc& b) {
  return multigrid_named<CudaSpace>(
      [](auto&& fn) {
        fn(cuda::automatic{});
        fn(automatic{});
      },
      policy, req, f, u, k, b);
}

}  // namespace tessera::python
