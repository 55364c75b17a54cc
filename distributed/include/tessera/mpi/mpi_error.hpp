#pragma once
// A failed MPI call as a tessera error, named, with MPI's message.
#include <mpi.h>

#include <string>

#include "tessera/core/errors.hpp"

namespace tessera::mpi {

/// A failed MPI call, named, with MPI's message.
struct mpi_error : backend_error {
  using backend_error::backend_error;
};

namespace detail {
inline void check(int rc, const char* call) {
  if (rc == MPI_SUCCESS) return;
  char msg[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(rc, msg, &len);
  throw mpi_error(std::string("tessera::mpi: ") + call + " failed: " + std::string(msg, static_cast<std::size_t>(len)));
}
}  // namespace detail

}  // namespace tessera::mpi
