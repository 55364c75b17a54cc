#pragma once
// tessera's exception hierarchy. Every message names what was wrong (the view's label and
// extents where there is a view) and what to do about it.
//
//   error
//   ├── invalid_argument_error   bad extents, ghost width, coefficient count, axis, order
//   ├── extent_mismatch_error    two views that must agree do not
//   ├── aliasing_error           a sweep's input and output share memory
//   ├── ghost_width_error        the input's ghost layer is narrower than the shape's reach
//   ├── out_of_bounds_error      accessor index outside interior + ghosts (TESSERA_DEBUG_BOUNDS)
//   ├── unsupported_error        a policy cannot implement a request (carries the reason)
//   └── backend_error            a failed CUDA / Kokkos call
//       └── allocation_error     memory could not be allocated
#include <stdexcept>
#include <string>

namespace tessera {

struct error : std::runtime_error {
  using std::runtime_error::runtime_error;
};
struct invalid_argument_error : error {
  using error::error;
};
struct extent_mismatch_error : error {
  using error::error;
};
struct aliasing_error : error {
  using error::error;
};
struct ghost_width_error : error {
  using error::error;
};
struct out_of_bounds_error : error {
  using error::error;
};
struct unsupported_error : error {
  using error::error;
};
struct backend_error : error {
  using error::error;
};
struct allocation_error : backend_error {
  using backend_error::backend_error;
};

}  // namespace tessera
