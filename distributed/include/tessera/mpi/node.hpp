#pragma once
// Where a process sits on its node: its rank among the processes sharing the node's memory
// and how many they are (MPI_Comm_split_type, MPI_COMM_TYPE_SHARED). Distributed device
// runs pick their GPU from it: one GPU a rank, the node rank modulo the node's GPUs. And
// how many OpenMP threads each process runs: its share of the node's cores, for an OpenMP
// runtime left alone starts a thread per core in every process (2 ranks of host:parallel
// on a 32-core host ran heat3d 64^3 at 0.025 GCell-updates/s, each rank on 32 threads).
#include <mpi.h>

#include <cstdlib>
#include <thread>
#if defined(_OPENMP)
#include <omp.h>
#endif

#include "tessera/mpi/mpi_error.hpp"

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

/// The OpenMP threads of one of `ranks_on_node` processes sharing `cores_on_node` cores,
/// allowed to run on `cores_allowed` of them (its affinity mask): its share, at most what it
/// may use, at least 1.
constexpr int threads_per_rank(int cores_on_node, int ranks_on_node, int cores_allowed) {
  const int share = ranks_on_node > 0 ? cores_on_node / ranks_on_node : cores_on_node;
  const int t = share < cores_allowed ? share : cores_allowed;
  return t > 1 ? t : 1;
}

/// Collective over comm. Unless OMP_NUM_THREADS is set (the user's word wins), sets this
/// process's OpenMP threads to its share of its node's cores (threads_per_rank). Returns
/// the threads a parallel region of this process now starts (1 without OpenMP).
inline int share_node_cores(MPI_Comm comm = MPI_COMM_WORLD) {
  const node_placement p = placement_on_node(comm);
#if defined(_OPENMP)
  if (!std::getenv("OMP_NUM_THREADS") && p.ranks > 1) {
    const int cores = static_cast<int>(std::thread::hardware_concurrency());
    omp_set_num_threads(threads_per_rank(cores > 0 ? cores : omp_get_num_procs(), p.ranks, omp_get_num_procs()));
  }
  return omp_get_max_threads();
#else
  return 1;
#endif
}

}  // namespace tessera::mpi
