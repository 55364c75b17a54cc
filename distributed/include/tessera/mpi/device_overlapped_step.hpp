#pragma once
// One overlapped step on a rank's block: the order of the streams' work that mpi::iterate
// (stencils, device_iterate.hpp) and mpi::apply (point functions,
// device_point_function.hpp) share. Written once, here, because the order is what makes
// the result the unoverlapped one (device_iterate.hpp says why):
//
//   compute stream  fill_beside_interior()   the unsplit axes' ghosts the inner box reads
//   comm stream     (waits for it)           the last step's writes and those ghosts
//   compute stream  sweep(inner box)         reads no halo that travels
//   comm stream     exchange_then_fill_rest() the messages, the global faces, the rest
//   shell streams   (wait for the comm stream) sweep(each shell box), at once
//   compute stream  (waits for the shell streams)
//
// The callers fill their own fields (iterate one view, apply every input with a reach) and
// sweep with their own policy; sweep(box, stream) sweeps one block_box on that stream.
#include <cstddef>
#include <utility>

#include "tessera/mpi/device_exchange.hpp"
#include "tessera/mpi/overlap_boxes.hpp"

namespace tessera::mpi {

template <class T, int Rank, class FillBesideInterior, class ExchangeThenFillRest, class SweepBox>
void overlapped_step(device_exchange<T, Rank>& exchange, const overlap_split<Rank>& split,
                     FillBesideInterior&& fill_beside_interior, ExchangeThenFillRest&& exchange_then_fill_rest,
                     SweepBox&& sweep) {
  std::forward<FillBesideInterior>(fill_beside_interior)();
  exchange.comm_waits_for_compute();  // the last step wrote the fields; the messages carry those cells
  sweep(split.inner, exchange.compute_stream());
  std::forward<ExchangeThenFillRest>(exchange_then_fill_rest)();
  exchange.shell_streams_wait_for_comm();
  for (std::size_t b = 0; b < split.shell.size(); ++b) sweep(split.shell[b], exchange.shell_stream(static_cast<int>(b)));
  exchange.compute_waits_for_shell_streams();
}

}  // namespace tessera::mpi
