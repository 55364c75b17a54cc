// multigrid_solve of device (CuPy) arrays for the Python module: cuda::automatic and
// automatic. The solves of each element type are compiled in a unit of their own
// (solvers_cuda_float.cu, solvers_cuda_double.cu); this one picks the unit by f's type.
#include "solvers.hpp"

namespace tessera::python {

solve_report multigrid_cuda(const std::string& policy, const solve_request& req, const views_in<CudaSpace>& f,
                            const views_in<CudaSpace>& u, const views_in<CudaSpace>* k, const boundary_desc& b) {
  const bool is_float =
      std::visit([](const auto& v) { return std::is_same_v<typename std::decay_t<decltype(v)>::value_type, float>; }, f);
  return is_float ? multigrid_cuda_of<float>(policy, req, f, u, k, b)
                  : multigrid_cuda_of<double>(policy, req, f, u, k, b);
}

}  // namespace tessera::python
