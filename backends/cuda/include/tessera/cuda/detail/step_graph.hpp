#pragma once
// Time steps recorded once as a CUDA graph and replayed: the customisation point
// tessera::iterate reaches for CudaSpace views (replay_steps, found by argument-dependent
// lookup on the space). On small grids a step's kernels run for a few microseconds, about
// what launching them costs: each launch passes through tessera's plan and checks on the
// host and through the GPU's front end. A graph records a block of steps (fills and
// sweeps) once and launches the whole block with one call, the kernels' arguments fixed
// (the block is an even number of steps, so the two views are back where they started).
// A call records and instantiates its graph once, which short runs do not pay back; over
// 1000 steps on small grids it measured the fastest, with overlapped launches (runtime.hpp)
// off (perf/RESULTS.md), so kernels recorded into a graph go without the overlap
// attribute. iterate uses graphs where iterate_options::launch_graphs says so, and where it
// is left unset, where graphs_pay_off says they pay.
#include <cuda_runtime_api.h>

#include <cstddef>

#include "tessera/cuda/memory_space.hpp"

namespace tessera::cuda {

/// What this host thread's step graphs did (tests and benchmarks read it).
struct step_graph_counts {
  long long recorded = 0;   // blocks captured and instantiated
  long long launched = 0;   // graph launches (each runs one block of steps)
  long long refused = 0;    // captures given up (a call in the block that a capture refuses)
};
const step_graph_counts& step_graphs_so_far();

namespace detail {

/// One capture on a stream of its own, the graph made of it and its launches. The stream
/// is a blocking one: it waits for the legacy default stream's earlier work and that
/// stream waits for its launches, so the steps before and after (on the default stream)
/// stay in order without events.
class step_graph {
 public:
  step_graph();
  ~step_graph();
  step_graph(const step_graph&) = delete;
  step_graph& operator=(const step_graph&) = delete;
  /// Starts the capture; everything enqueued on the returned stream is recorded, not run.
  cudaStream_t begin_capture();
  /// Ends it and instantiates the graph; false (the capture's error cleared) when the
  /// capture was invalidated.
  bool end_capture();
  /// Ends a capture that an exception left open, clearing its error.
  void abandon_capture() noexcept;
  /// Launches the graph `times` times on the stream and waits for them.
  void launch(int times);
  /// Launches the graph once without waiting: the legacy default stream's later work waits
  /// for it (the stream is a blocking one); the destructor waits for it.
  void launch_async();

 private:
  cudaStream_t stream_ = nullptr;
  cudaGraph_t graph_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
  bool capturing_ = false;
};

}  // namespace detail

/// Whether iterate records steps as graphs where iterate_options::launch_graphs is unset:
/// for a run of `steps` steps between callbacks whose sweep moves `bytes_per_step` bytes.
/// Graphs pay where a sweep runs for about what launching it costs and the run is long
/// enough to pay back a call's recording: sweeps of up to 24 MB in calls of at least 512
/// steps (the measurements on an H100: perf/RESULTS.md, the runs on step graphs; sweeps of
/// about 32 MB and calls of 100 steps ran no faster replayed than launched).
inline bool graphs_pay_off(CudaSpace, std::size_t bytes_per_step, long long steps) {
  return steps >= 512 && bytes_per_step <= (std::size_t(24) << 20);
}

/// Runs record(stream), which enqueues one block of steps on `stream`, `times` times:
/// recorded once as a CUDA graph, launched `times` times, finished when this returns.
/// False when the block could not be recorded (a call in it that a capture refuses, or an
/// error while recording): then nothing ran, and the caller steps without a graph (which
/// raises a real error again where it occurs).
template <class Record>
bool replay_steps(CudaSpace, int times, Record&& record) {
  detail::step_graph g;
  const cudaStream_t s = g.begin_capture();
  try {
    record(s);
  } catch (...) {
    g.abandon_capture();
    return false;
  }
  if (!g.end_capture()) return false;
  g.launch(times);
  return true;
}

}  // namespace tessera::cuda
