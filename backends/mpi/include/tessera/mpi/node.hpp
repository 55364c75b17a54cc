#pragma once
// Where a process sits on its node: its rank among the processes sharing the node's memory
// and how many they are (MPI_Comm_split_type, MPI_COMM_TYPE_SHARED). Distributed device
// runs pick their GPU from it: one GPU a rank, the node rank modulo the node's GPUs.
#include <mpi.h>

#include "tessera/mpi/cartesian.hpp"

namespace tessera::mpi {

struct node_placement {
  int rank = 0;   // among the processes of comm on this node
  int ranks = 1;  // processes of comm on this node
};

/// Collective over comm.
inline node_placement placement_on_node(MPI_Comm comm = MPI_COMM_WORLD) {
  int rank = 0;
  detail::check(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  MPI_Comm node;
  detail::check(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node), "MPI_Comm_split_type");
  node_placement p;
  MPI_Comm_rank(node, &p.rank);
  MPI_Comm_size(node, &p.ranks);
  MPI_Comm_free(&node);
  return p;
}

}  // namespace tessera::mpi
