// CUDA graphs: what stream capture produced, instantiated and launched. A
// launch replays the recorded operations in order on the calling thread,
// like any other stream work here. Building graphs node by node
// (cudaGraphAdd*Node) is not modelled: those calls are not defined.
#include <mutex>
#include <set>
#include <utility>
#include <vector>

#include <cuda_runtime_api.h>

#include "runtime/capture.hpp"
#include "runtime/graph.hpp"
#include "runtime/handles.hpp"
#include "runtime/state.hpp"
#include "runtime/streams.hpp"

using namespace cudasim;

struct CUgraph_st {
    std::vector<GraphNode> nodes;
};

// An instantiated graph keeps its own copy of the nodes: a graph may be
// destroyed while its executable graphs live on.
struct CUgraphExec_st {
    std::vector<GraphNode> nodes;
};

namespace cudasim {
cudaGraph_t make_graph(std::vector<GraphNode> nodes)
{
    cudaGraph_t graph = new CUgraph_st{std::move(nodes)};
    live_handles<cudaGraph_t>().insert(graph);
    return graph;
}
}  // namespace cudasim

extern "C" {

cudaError_t cudaGraphCreate(cudaGraph_t* pGraph, unsigned int flags)
{
    std::lock_guard lock(runtime().mutex);
    if (cudaError_t e = sticky_error())
        return e;
    if (!pGraph || flags != 0)
        return fail_call("cudaGraphCreate", cudaErrorInvalidValue, "pGraph is NULL or flags not 0");
    *pGraph = make_graph({});
    return cudaSuccess;
}

cudaError_t cudaGraphDestroy(cudaGraph_t graph)
{
    return destroy_handle("cudaGraphDestroy", graph, cudaErrorInvalidValue, "unknown graph");
}

cudaError_t cudaGraphInstantiate(cudaGraphExec_t* pGraphExec, cudaGraph_t graph, unsigned long long flags)
{
    const char* api = "cudaGraphInstantiate";
    std::lock_guard lock(runtime().mutex);
    if (cudaError_t e = sticky_error_or_null(api, pGraphExec != nullptr, "pGraphExec"))
        return e;
    if (!live_handles<cudaGraph_t>().count(graph))
        return fail_call(api, cudaErrorInvalidValue, "unknown graph");
    // Graphs launched from the device need dynamic parallelism; the other
    // flags concern allocation nodes, uploads and priorities, which do not
    // exist here.
    if (flags & cudaGraphInstantiateFlagDeviceLaunch)
        return fail_call(api, cudaErrorNotSupported,
                         "cudaGraphInstantiateFlagDeviceLaunch is not supported by the cudasim CPU simulator");
    *pGraphExec = new CUgraphExec_st{graph->nodes};
    live_handles<cudaGraphExec_t>().insert(*pGraphExec);
    return cudaSuccess;
}

cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t* pGraphExec, cudaGraph_t graph, unsigned long long flags)
{
    return cudaGraphInstantiate(pGraphExec, graph, flags);
}

cudaError_t cudaGraphExecDestroy(cudaGraphExec_t graphExec)
{
    return destroy_handle("cudaGraphExecDestroy", graphExec, cudaErrorInvalidValue, "unknown executable graph");
}

cudaError_t cudaGraphLaunch(cudaGraphExec_t graphExec, cudaStream_t stream)
{
    const char* api = "cudaGraphLaunch";
    std::lock_guard lock(runtime().mutex);
    if (cudaError_t e = sticky_error())
        return e;
    if (!live_handles<cudaGraphExec_t>().count(graphExec))
        return fail_call(api, cudaErrorInvalidValue, "unknown executable graph");
    if (!is_valid_stream(stream))
        return fail_call(api, cudaErrorInvalidResourceHandle, "unknown stream");
    cudaError_t error = cudaSuccess;
    Capture* capture = capture_for(api, stream, error);
    if (error)
        return error;
    // Launched into a capture, the graph becomes part of the captured one.
    if (capture) {
        capture->nodes.insert(capture->nodes.end(), graphExec->nodes.begin(), graphExec->nodes.end());
        return cudaSuccess;
    }
    // As after a launch, a kernel fault stops the work that follows it.
    for (const GraphNode& node : graphExec->nodes) {
        if (runtime().pending_fault != cudaSuccess)
            break;
        node();
    }
    return cudaSuccess;
}

}  // extern "C"
