#pragma once
// tessera over MPI (link tessera::mpi): Cartesian domain decomposition, distributed views,
// halo exchange with boundary conditions on the global faces, global reductions, gather
// and scatter, and time stepping over distributed views; with tessera::mpi_cuda
// (TESSERA_MPI_DEVICE), the same on device views: device_exchange, its transports,
// mpi::iterate with the halos travelling while the inner planes are swept, and point
// functions (mpi::apply).
#include "tessera/mpi/iterate.hpp"
#include "tessera/mpi/cartesian.hpp"
#include "tessera/mpi/distributed_view.hpp"
#include "tessera/mpi/gather.hpp"
#include "tessera/mpi/halo_exchange.hpp"
#include "tessera/mpi/io.hpp"
#include "tessera/mpi/node.hpp"
#include "tessera/mpi/overlap_boxes.hpp"
#include "tessera/mpi/point_function.hpp"
#include "tessera/mpi/reduce.hpp"
#ifdef TESSERA_MPI_DEVICE
#include "tessera/mpi/device_exchange.hpp"
#include "tessera/mpi/device_iterate.hpp"
#include "tessera/mpi/device_point_function.hpp"
#include "tessera/mpi/transport.hpp"
#endif
