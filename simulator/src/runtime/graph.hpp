// CUDA graphs as the simulator builds them: a list of recorded operations,
// replayed in the order they were captured. From a single capturing stream
// that order respects every dependency of the graph.
#pragma once

#include <functional>
#include <vector>

#include <cuda_runtime_api.h>

namespace cudasim {

// Replays one recorded operation. Called with runtime().mutex held.
using GraphNode = std::function<void()>;

// A new graph holding `nodes` (what cudaStreamEndCapture returns). Call with
// runtime().mutex held.
cudaGraph_t make_graph(std::vector<GraphNode> nodes);

}  // namespace cudasim
