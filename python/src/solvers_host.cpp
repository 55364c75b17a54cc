// multigrid_solve of host (NumPy) arrays for the Python module: host::serial,
// host::parallel and automatic.
#include "solvers.hpp"

namespace tessera::python {

solve_report multigrid_host(const std::string& policy, const solve_request& req, const views_in<HostSpace>& f,
                            const views_in<HostSpace>& u, const views_in<HostSpace>* k, const boundary_desc& b) {
  return multigrid_named<HostSpace>(
      [](auto&& fn) {
        fn(host::serial{});
        fn(host::parallel{});
        fn(automatic{});
      },
      policy, req, f, u, k, b);
}

}  // namespace tessera::python
