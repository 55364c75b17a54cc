// poisson3d in float: the host policies' solves (host:serial, host:parallel, kokkos:mdrange,
// automatic on the host), for the runs in run_poisson.cpp.
#include "run_poisson_solve.hpp"

namespace tessera::app {
std::vector<poisson_solve_fn<float, 3>> poisson_host_solves_float_3d =
    poisson_solves<HostSpace, float, 3>([](auto f) { for_each_host_policy(f); });
}  // namespace tessera::app
