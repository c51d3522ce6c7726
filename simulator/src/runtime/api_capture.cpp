// Stream capture API: begin and end a capture, query a stream's capture
// state, the thread's capture interaction mode. The rules a capture imposes
// on other calls are in runtime/capture.cpp.
#include <cstddef>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include <cuda_runtime_api.h>

#include "runtime/capture.hpp"
#include "runtime/state.hpp"
#include "runtime/streams.hpp"

using namespace cudasim;

namespace {

// A program may pass any integer cast to the enum. Its bytes are read as the underlying integer:
// loading an enum object that holds no enumerator's value is undefined behaviour.
bool is_valid_mode(const cudaStreamCaptureMode& mode)
{
    using Raw = std::underlying_type_t<cudaStreamCaptureMode>;
    Raw raw;
    std::memcpy(&raw, &mode, sizeof raw);
    for (const cudaStreamCaptureMode known :
         {cudaStreamCaptureModeGlobal, cudaStreamCaptureModeThreadLocal, cudaStreamCaptureModeRelaxed})
        if (raw == static_cast<Raw>(known))
            return true;
    return false;
}

// The capture status of `stream`; on the legacy stream while a blocking
// stream captures the answer is cudaErrorStreamCaptureImplicit, which does
// not invalidate that capture.
cudaError_t capture_status(const char* api, cudaStream_t stream, cudaStreamCaptureStatus* status, Capture** capture)
{
    if (cudaError_t e = sticky_error())
        return e;
    if (!status)
        return fail_call(api, cudaErrorInvalidValue, "the status pointer is NULL");
    if (!is_valid_stream(stream))
        return fail_call(api, cudaErrorInvalidResourceHandle, "unknown stream");
    if (cudaError_t e = check_legacy_stream(api, stream, false))
        return e;
    *capture = active_capture(stream);
    *status = !*capture                   ? cudaStreamCaptureStatusNone
              : (*capture)->invalidated() ? cudaStreamCaptureStatusInvalidated
                                          : cudaStreamCaptureStatusActive;
    return cudaSuccess;
}

}  // namespace

extern "C" {

cudaError_t cudaStreamBeginCapture(cudaStream_t stream, cudaStreamCaptureMode mode)
{
    const char* api = "cudaStreamBeginCapture";
    std::lock_guard lock(runtime().mutex);
    if (cudaError_t e = sticky_error())
        return e;
    if (!is_valid_stream(stream))
        return fail_call(api, cudaErrorInvalidResourceHandle, "unknown stream");
    if (is_legacy_stream(stream))
        return fail_call(api, cudaErrorStreamCaptureUnsupported,
                         "the legacy default stream cannot be captured; capture a stream made with cudaStreamCreate");
    if (!is_valid_mode(mode))
        return fail_call(api, cudaErrorInvalidValue, "unknown cudaStreamCaptureMode");
    if (active_capture(stream))
        return fail_call(api, cudaErrorIllegalState, "the stream is already capturing");
    begin_capture(stream, mode);
    return cudaSuccess;
}

cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t* pGraph)
{
    const char* api = "cudaStreamEndCapture";
    std::lock_guard lock(runtime().mutex);
    if (cudaError_t e = sticky_error_or_null(api, pGraph != nullptr, "pGraph"))
        return e;
    if (!is_valid_stream(stream))
        return fail_call(api, cudaErrorInvalidResourceHandle, "unknown stream");
    Capture* capture = active_capture(stream);
    if (!capture)
        return fail_call(api, cudaErrorIllegalState, "the stream is not capturing");
    if (capture->mode != cudaStreamCaptureModeRelaxed && capture->thread != std::this_thread::get_id())
        return fail_call(api, cudaErrorStreamCaptureWrongThread,
                         "a capture not begun in relaxed mode must be ended by the thread that began it");
    std::unique_ptr<Capture> ended = end_capture(stream);
    if (ended->invalidated()) {
        *pGraph = nullptr;
        return fail_call(api, cudaErrorStreamCaptureInvalidated,
                         "the capture was invalidated by " + ended->invalidated_by + "; no graph is returned");
    }
    *pGraph = make_graph(std::move(ended->nodes));
    return cudaSuccess;
}

cudaError_t cudaStreamIsCapturing(cudaStream_t stream, cudaStreamCaptureStatus* pCaptureStatus)
{
    std::lock_guard lock(runtime().mutex);
    Capture* capture = nullptr;
    return capture_status("cudaStreamIsCapturing", stream, pCaptureStatus, &capture);
}

// The capture's graph and its dependency nodes are not exposed: nodes are
// not objects here.
cudaError_t cudaStreamGetCaptureInfo(cudaStream_t stream, cudaStreamCaptureStatus* captureStatus_out,
                                     unsigned long long* id_out, cudaGraph_t* graph_out,
                                     const cudaGraphNode_t** dependencies_out, const cudaGraphEdgeData** edgeData_out,
                                     size_t* numDependencies_out)
{
    const char* api = "cudaStreamGetCaptureInfo";
    std::lock_guard lock(runtime().mutex);
    if (graph_out || dependencies_out || edgeData_out)
        return fail_call(api, cudaErrorNotSupported,
                         "graph_out, dependencies_out and edgeData_out are not supported by the cudasim CPU simulator");
    Capture* capture = nullptr;
    if (cudaError_t e = capture_status(api, stream, captureStatus_out, &capture))
        return e;
    if (!capture || capture->invalidated())
        return cudaSuccess;
    if (id_out)
        *id_out = capture->id;
    // Captured work forms a chain, so the next node depends on the last one.
    if (numDependencies_out)
        *numDependencies_out = capture->nodes.empty() ? 0 : 1;
    return cudaSuccess;
}

cudaError_t cudaThreadExchangeStreamCaptureMode(cudaStreamCaptureMode* mode)
{
    std::lock_guard lock(runtime().mutex);
    if (!mode || !is_valid_mode(*mode))
        return fail_call("cudaThreadExchangeStreamCaptureMode", cudaErrorInvalidValue, "NULL or unknown mode");
    *mode = exchange_thread_capture_mode(*mode);
    return cudaSuccess;
}

}  // extern "C"
