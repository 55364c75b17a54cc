// The non-template half of step_graph.hpp: streams, captures, graphs, launches.
#include "tessera/cuda/detail/step_graph.hpp"

#include "tessera/cuda/cuda_check.hpp"
#include "tessera/cuda/runtime.hpp"

namespace tessera::cuda {

namespace {
thread_local step_graph_counts counts;
}

const step_graph_counts& step_graphs_so_far() { return counts; }

namespace detail {

step_graph::step_graph() {
  TESSERA_CUDA_CHECK(cudaStreamCreate(&stream_), "tessera::iterate: creating the stream of a step graph");
}

step_graph::~step_graph() {
  if (capturing_) abandon_capture();
  if (stream_) (void)cudaStreamSynchronize(stream_);  // a launch_async's graph has run
  if (exec_) cudaGraphExecDestroy(exec_);
  if (graph_) cudaGraphDestroy(graph_);
  if (stream_) cudaStreamDestroy(stream_);
}

cudaStream_t step_graph::begin_capture() {
  // thread-local mode: calls of this thread that a capture cannot hold (a synchronisation,
  // the legacy stream) invalidate it, and other threads' CUDA work is not disturbed
  TESSERA_CUDA_CHECK(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeThreadLocal),
                     "tessera::iterate: starting the capture of a step graph");
  capturing_ = true;
  recording_step_graph(true);  // the graph's kernels are recorded without the overlap attribute
  return stream_;
}

bool step_graph::end_capture() {
  capturing_ = false;
  recording_step_graph(false);
  const cudaError_t ended = cudaStreamEndCapture(stream_, &graph_);
  if (ended != cudaSuccess || graph_ == nullptr) {
    (void)cudaGetLastError();  // the invalidated capture's error is not the caller's
    ++counts.refused;
    return false;
  }
  if (cudaGraphInstantiate(&exec_, graph_, 0) != cudaSuccess) {
    (void)cudaGetLastError();
    exec_ = nullptr;
    ++counts.refused;
    return false;
  }
  ++counts.recorded;
  return true;
}

void step_graph::abandon_capture() noexcept {
  if (!capturing_) return;
  capturing_ = false;
  recording_step_graph(false);
  cudaGraph_t g = nullptr;
  (void)cudaStreamEndCapture(stream_, &g);
  if (g) cudaGraphDestroy(g);
  (void)cudaGetLastError();
  ++counts.refused;
}

void step_graph::launch(int times) {
  for (int i = 0; i < times; ++i) {
    TESSERA_CUDA_CHECK(cudaGraphLaunch(exec_, stream_), "tessera::iterate: launching a step graph");
    ++counts.launched;
  }
  // before the graph and the stream go: the launches must have run
  TESSERA_CUDA_CHECK(cudaStreamSynchronize(stream_), "tessera::iterate: the steps of a step graph");
}

void step_graph::launch_async() {
  TESSERA_CUDA_CHECK(cudaGraphLaunch(exec_, stream_), "launching a recorded graph");
  ++counts.launched;
}

}  // namespace detail
}  // namespace tessera::cuda
