// poisson2d in double: the host policies' solves (host:serial, host:parallel, kokkos:mdrange,
// automatic on the host), for the runs in run_poisson.cpp.
#include "run_poisson_solve.hpp"

namespace tessera::app {
std::vector<poisson_solve_fn<double, 2>> poisson_host_solves_double_2d =
    poisson_solves<HostSpace, double, 2>([](auto f) { for_each_host_policy(f); });
}  // namespace tessera::app
