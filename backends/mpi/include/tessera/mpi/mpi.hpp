#pragma once
// tessera over MPI (link tessera::mpi): Cartesian domain decomposition, distributed views,
// halo exchange with boundary conditions on the global faces, global reductions, gather
// and scatter, and time stepping over distributed views.
#include "tessera/mpi/iterate.hpp"
#include "tessera/mpi/cartesian.hpp"
#include "tessera/mpi/distributed_view.hpp"
#include "tessera/mpi/gather.hpp"
#include "tessera/mpi/halo_exchange.hpp"
#include "tessera/mpi/io.hpp"
#include "tessera/mpi/point_function.hpp"
#include "tessera/mpi/reduce.hpp"
