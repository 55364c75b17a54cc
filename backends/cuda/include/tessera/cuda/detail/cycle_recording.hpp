#pragma once
// A multigrid cycle's coarse levels recorded once as a CUDA graph and replayed: the
// customisation point algorithms/multigrid.hpp reaches for cuda::automatic
// (cycle_recording_for). Below a few hundred thousand points a level's kernels run for a
// few microseconds each, about what launching them costs on the host and in the GPU's
// front end; a V-cycle's coarse part is some thirty such launches. Recorded once, the whole
// part is one graph launch. The graph keeps the kernels' arguments: the levels' views must
// be the same buffers at every replay (the solver records only where each level swaps its
// two views an even number of times a cycle) and the recorded work must launch only
// multigrid's own kernels (multigrid_kernels.hpp), which launch on the capture's stream
// while it records.
#include <cuda_runtime_api.h>

#include <memory>
#include <utility>

#include "tessera/cuda/detail/step_graph.hpp"

namespace tessera::cuda {

namespace detail {
/// The stream multigrid_kernels.hpp's kernels launch on from this thread (nullptr: the
/// legacy default stream).
void multigrid_launch_stream(cudaStream_t stream);
}  // namespace detail

class cycle_recording {
 public:
  cycle_recording() = default;
  // a copy records its own graph (the original's belongs to its solver's views)
  cycle_recording(const cycle_recording&) noexcept {}
  cycle_recording& operator=(const cycle_recording& other) noexcept {
    if (this != &other) *this = cycle_recording();
    return *this;
  }
  cycle_recording(cycle_recording&&) noexcept = default;
  cycle_recording& operator=(cycle_recording&&) noexcept = default;
  ~cycle_recording() = default;

  /// Runs the work `body` enqueues: the first call records it (body runs on the host, its
  /// kernels are captured) and launches the graph; later calls launch the graph without
  /// calling body. Where the capture is refused (body made a call a capture cannot hold),
  /// body runs again without a graph, then and on every later call.
  template <class Body>
  void run(Body&& body) {
    if (graph_) {
      graph_->launch_async();
      ++replayed_;
      return;
    }
    if (refused_) {
      body();
      return;
    }
    auto g = std::make_unique<detail::step_graph>();
    detail::multigrid_launch_stream(g->begin_capture());
    try {
      body();
    } catch (...) {
      detail::multigrid_launch_stream(nullptr);
      g->abandon_capture();
      throw;
    }
    detail::multigrid_launch_stream(nullptr);
    if (!g->end_capture()) {
      refused_ = true;
      body();
      return;
    }
    graph_ = std::move(g);
    ++recorded_;
    graph_->launch_async();
    ++replayed_;
  }

  long long recorded() const { return recorded_; }  // graphs captured (0 or 1)
  long long replayed() const { return replayed_; }  // graph launches, the first included
  bool refused() const { return refused_; }

 private:
  std::unique_ptr<detail::step_graph> graph_;
  bool refused_ = false;
  long long recorded_ = 0, replayed_ = 0;
};

}  // namespace tessera::cuda
