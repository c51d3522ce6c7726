// Streams and events. Work runs synchronously at submission, so streams
// only need to exist; events capture the simulated device clock. While a
// stream captures, records and waits on it follow CUDA's capture rules
// (runtime/capture.hpp).
#include <algorithm>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>

#include "runtime/capture.hpp"
#include "runtime/handles.hpp"
#include "runtime/state.hpp"
#include "runtime/streams.hpp"

using namespace cudasim;

struct CUstream_st {
    unsigned flags = 0;
    int priority = 0;
};

struct CUevent_st {
    unsigned flags = 0;
    bool recorded = false;
    double time_ms = 0;
    // Last recorded in this capture (0: not): the record is part of the
    // capture, and the event cannot be waited for from the host until then.
    unsigned long long capture_id = 0;
};

namespace {

// The capture the event was last recorded in, if that capture is still going on.
Capture* captured_in(cudaEvent_t event)
{
    return event->capture_id ? capture_with_id(event->capture_id) : nullptr;
}

cudaError_t wait_for_stream(const char* api, cudaStream_t stream)
{
    std::lock_guard lock(runtime().mutex);
    if (cudaError_t e = sticky_error())
        return e;
    if (!is_valid_stream(stream))
        return fail_call(api, cudaErrorInvalidResourceHandle, "unknown stream");
    if (cudaError_t e = check_stream_wait(api, stream))
        return e;
    return synchronize_with_device();
}

cudaError_t wait_for_event(const char* api, cudaEvent_t event)
{
    std::lock_guard lock(runtime().mutex);
    if (cudaError_t e = sticky_error())
        return e;
    if (!live_handles<cudaEvent_t>().count(event))
        return fail_call(api, cudaErrorInvalidResourceHandle, "unknown event");
    if (Capture* capture = captured_in(event))
        return fail_stream_call(capture, api, cudaErrorCapturedEvent,
                                "the event was recorded in a capturing stream, so it stands for work that has not run");
    if (cudaError_t e = check_unsafe_call(api))
        return e;
    return synchronize_with_device();
}

// The checks of a call that reads a property of `stream` into its argument `name`.
cudaError_t check_stream_query(const char* api, cudaStream_t stream, bool given, const char* name)
{
    if (!given)
        return fail_call(api, cudaErrorInvalidValue, std::string(name) + " is NULL");
    if (!is_valid_stream(stream))
        return fail_call(api, cudaErrorInvalidResourceHandle, "unknown stream");
    return cudaSuccess;
}
}  // namespace

namespace cudasim {
bool is_valid_stream(cudaStream_t stream)
{
    return is_legacy_stream(stream) || stream == cudaStreamPerThread || live_handles<cudaStream_t>().count(stream) > 0;
}

bool synchronizes_with_legacy_stream(cudaStream_t stream)
{
    if (stream == cudaStreamPerThread)
        return true;
    return live_handles<cudaStream_t>().count(stream) > 0 && !(stream->flags & cudaStreamNonBlocking);
}
}  // namespace cudasim

extern "C" {

cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned int flags)
{
    return create_handle("cudaStreamCreate", stream, "stream", flags);
}

cudaError_t cudaStreamCreate(cudaStream_t* stream)
{
    return cudaStreamCreateWithFlags(stream, 0);
}

// An H100's range of stream priorities: 0 (the least, the default) to -5 (the greatest). Work runs
// in launch order whatever the priority, but the value is kept, clamped to the range, as a GPU does.
constexpr int kLeastStreamPriority = 0;
constexpr int kGreatestStreamPriority = -5;

cudaError_t cudaDeviceGetStreamPriorityRange(int* leastPriority, int* greatestPriority)
{
    if (leastPriority)
        *leastPriority = kLeastStreamPriority;
    if (greatestPriority)
        *greatestPriority = kGreatestStreamPriority;
    return cudaSuccess;
}

cudaError_t cudaStreamCreateWithPriority(cudaStream_t* stream, unsigned int flags, int priority)
{
    const cudaError_t e = cudaStreamCreateWithFlags(stream, flags);
    if (e == cudaSuccess)
        (*stream)->priority = std::clamp(priority, kGreatestStreamPriority, kLeastStreamPriority);
    return e;
}

cudaError_t cudaStreamGetPriority(cudaStream_t stream, int* priority)
{
    std::lock_guard lock(runtime().mutex);
    if (cudaError_t e = check_stream_query("cudaStreamGetPriority", stream, priority != nullptr, "priority"))
        return e;
    *priority = live_handles<cudaStream_t>().count(stream) ? stream->priority : kLeastStreamPriority;
    return cudaSuccess;
}

cudaError_t cudaStreamGetFlags(cudaStream_t stream, unsigned int* flags)
{
    std::lock_guard lock(runtime().mutex);
    if (cudaError_t e = check_stream_query("cudaStreamGetFlags", stream, flags != nullptr, "flags"))
        return e;
    *flags = live_handles<cudaStream_t>().count(stream) ? stream->flags : 0u;
    return cudaSuccess;
}

// Work on a stream has finished when a call returns, so a host function queued after it runs at
// once, in the stream's order. Inside a stream capture it would be a graph's host node, which the
// simulator does not model.
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void* userData)
{
    {
        std::lock_guard lock(runtime().mutex);
        if (cudaError_t e = sticky_error_or_null("cudaLaunchHostFunc", fn != nullptr, "fn"))
            return e;
        if (!is_valid_stream(stream))
            return fail_call("cudaLaunchHostFunc", cudaErrorInvalidResourceHandle, "unknown stream");
        if (active_capture(stream))
            return fail_call("cudaLaunchHostFunc", cudaErrorNotSupported,
                             "host functions in a stream capture are not supported by the cudasim CPU simulator");
    }
    fn(userData);  // outside the lock: the function may call the runtime
    return cudaSuccess;
}

// As cudaLaunchHostFunc: the stream's work has finished, so the callback runs at once. A kernel
// fault not yet synchronised with reaches it as its status, as a GPU passes a callback the error of
// the work before it; a fault already seen fails the call.
cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback, void* userData,
                                  unsigned int flags)
{
    cudaError_t status = cudaSuccess;
    {
        std::lock_guard lock(runtime().mutex);
        if (cudaError_t e = sticky_error())
            return e;  // a fault the program has seen already: the context is unusable
        if (!callback)
            return fail_call("cudaStreamAddCallback", cudaErrorInvalidValue, "callback is NULL");
        if (flags != 0)
            return fail_call("cudaStreamAddCallback", cudaErrorInvalidValue, "flags must be 0");
        if (!is_valid_stream(stream))
            return fail_call("cudaStreamAddCallback", cudaErrorInvalidResourceHandle, "unknown stream");
        if (active_capture(stream))
            return fail_call("cudaStreamAddCallback", cudaErrorStreamCaptureUnsupported,
                             "a callback cannot be captured (cudaLaunchHostFunc can on a GPU)");
        status = synchronize_with_device();
    }
    callback(stream, status, userData);  // outside the lock: the callback may call the runtime
    return cudaSuccess;
}

cudaError_t cudaStreamDestroy(cudaStream_t stream)
{
    std::lock_guard lock(runtime().mutex);
    if (cudaError_t e = forget_handle("cudaStreamDestroy", stream, cudaErrorInvalidResourceHandle, "unknown stream"))
        return e;
    discard_capture(stream);
    delete stream;
    return cudaSuccess;
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream)
{
    return wait_for_stream("cudaStreamSynchronize", stream);
}

// Work has always finished here, so a query is a synchronisation.
cudaError_t cudaStreamQuery(cudaStream_t stream)
{
    return wait_for_stream("cudaStreamQuery", stream);
}

cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags)
{
    const char* api = "cudaStreamWaitEvent";
    std::lock_guard lock(runtime().mutex);
    if (cudaError_t e = sticky_error())
        return e;
    if (!is_valid_stream(stream) || !live_handles<cudaEvent_t>().count(event))
        return fail_call(api, cudaErrorInvalidResourceHandle, "unknown stream or event");
    cudaError_t error = cudaSuccess;
    Capture* capture = capture_for(api, stream, error);
    if (error)
        return error;
    Capture* event_capture = captured_in(event);
    if (!capture) {
        if (!event_capture)
            return cudaSuccess;  // work has finished
        return fail_stream_call(event_capture, api, cudaErrorNotSupported,
                                "a stream joining a capture through a captured event (capture across streams) is not "
                                "supported by the cudasim CPU simulator");
    }
    // The capture runs in order, so waiting on its own earlier work adds nothing.
    if (event_capture == capture || (flags & cudaEventWaitExternal) || !event->recorded)
        return cudaSuccess;
    if (event_capture)
        return fail_stream_call(capture, api, cudaErrorStreamCaptureMerge, "the event belongs to another capture");
    return fail_stream_call(capture, api, cudaErrorStreamCaptureIsolation,
                            "the event was recorded outside the capture; wait on it with cudaEventWaitExternal");
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int flags)
{
    return create_handle("cudaEventCreate", event, "event", flags);
}

cudaError_t cudaEventCreate(cudaEvent_t* event)
{
    return cudaEventCreateWithFlags(event, 0);
}

cudaError_t cudaEventDestroy(cudaEvent_t event)
{
    return destroy_handle("cudaEventDestroy", event, cudaErrorInvalidResourceHandle, "unknown event");
}

cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream, unsigned int flags)
{
    const char* api = "cudaEventRecord";
    std::lock_guard lock(runtime().mutex);
    if (cudaError_t e = sticky_error())
        return e;
    if (!live_handles<cudaEvent_t>().count(event) || !is_valid_stream(stream))
        return fail_call(api, cudaErrorInvalidResourceHandle, "unknown event or stream");
    cudaError_t error = cudaSuccess;
    Capture* capture = capture_for(api, stream, error);
    if (error)
        return error;
    if (!capture) {
        event->recorded = true;
        event->time_ms = runtime().device_clock_ms;
        event->capture_id = 0;
        return cudaSuccess;
    }
    // A captured record only marks a point in the capture; an external one
    // becomes a node that records the event each time the graph runs.
    event->capture_id = capture->id;
    if (flags & cudaEventRecordExternal)
        capture->nodes.push_back([event] {
            if (!live_handles<cudaEvent_t>().count(event))
                return;  // destroyed since
            event->recorded = true;
            event->time_ms = runtime().device_clock_ms;
        });
    return cudaSuccess;
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream)
{
    return cudaEventRecordWithFlags(event, stream, 0);
}

cudaError_t cudaEventSynchronize(cudaEvent_t event)
{
    return wait_for_event("cudaEventSynchronize", event);
}

// Work has always finished here, so a query is a synchronisation.
cudaError_t cudaEventQuery(cudaEvent_t event)
{
    return wait_for_event("cudaEventQuery", event);
}

cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end)
{
    std::lock_guard lock(runtime().mutex);
    if (cudaError_t e = sticky_error_or_null("cudaEventElapsedTime", ms != nullptr, "ms"))
        return e;
    if (!live_handles<cudaEvent_t>().count(start) || !live_handles<cudaEvent_t>().count(end))
        return fail_call("cudaEventElapsedTime", cudaErrorInvalidResourceHandle, "unknown event");
    if ((start->flags | end->flags) & cudaEventDisableTiming)
        return fail_call("cudaEventElapsedTime", cudaErrorInvalidResourceHandle,
                         "event created with cudaEventDisableTiming");
    if (!start->recorded || !end->recorded)
        return fail_call("cudaEventElapsedTime", cudaErrorInvalidResourceHandle, "event was not recorded");
    *ms = static_cast<float>(end->time_ms - start->time_ms);
    return cudaSuccess;
}

}  // extern "C"
