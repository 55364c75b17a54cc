// multigrid_solve of device (CuPy) double arrays for the Python module (solvers.hpp:
// multigrid_cuda_of). Multigrid's sweeps are point functions whose kernels are
// instantiated here, so nvcc compiles this unit (python/CMakeLists.txt builds it into its
// own library).
#include "solvers.hpp"

namespace tessera::python {
template solve_report multigrid_cuda_of<double>(const std::string&, const solve_request&, const views_in<CudaSpace>&,
                                             const views_in<CudaSpace>&, const views_in<CudaSpace>*,
                                             const boundary_desc&);
}  // namespace tessera::python
