#include "runtime/capture.hpp"

#include <map>
#include <utility>

#include "runtime/state.hpp"
#include "runtime/streams.hpp"

namespace cudasim {
namespace {

// One capture per capturing stream: captures that fork into other streams
// through events are not modelled (api_events_streams.cpp refuses them).
std::map<cudaStream_t, std::unique_ptr<Capture>>& captures()
{
    static std::map<cudaStream_t, std::unique_ptr<Capture>> c;
    return c;
}

unsigned long long next_capture_id = 1;

// cudaThreadExchangeStreamCaptureMode; a thread starts in global mode.
thread_local cudaStreamCaptureMode thread_mode = cudaStreamCaptureModeGlobal;

// The captures that forbid the calling thread potentially unsafe calls:
// its own captures not begun in relaxed mode, and, while the thread is in
// global mode, other threads' captures begun in global mode.
std::vector<Capture*> captures_forbidding_unsafe_calls()
{
    std::vector<Capture*> result;
    if (thread_mode == cudaStreamCaptureModeRelaxed)
        return result;
    std::thread::id self = std::this_thread::get_id();
    for (auto& [stream, capture] : captures()) {
        bool own = capture->thread == self && capture->mode != cudaStreamCaptureModeRelaxed;
        bool others_global = thread_mode == cudaStreamCaptureModeGlobal && capture->thread != self &&
                             capture->mode == cudaStreamCaptureModeGlobal;
        if (own || others_global)
            result.push_back(capture.get());
    }
    return result;
}

}  // namespace

void invalidate_capture(Capture& capture, const char* api)
{
    if (!capture.invalidated())
        capture.invalidated_by = api;
}

Capture& begin_capture(cudaStream_t stream, cudaStreamCaptureMode mode)
{
    auto capture = std::make_unique<Capture>();
    capture->stream = stream;
    capture->mode = mode;
    capture->thread = std::this_thread::get_id();
    capture->id = next_capture_id++;
    Capture& result = *capture;
    captures()[stream] = std::move(capture);
    return result;
}

std::unique_ptr<Capture> end_capture(cudaStream_t stream)
{
    auto it = captures().find(stream);
    if (it == captures().end())
        return nullptr;
    std::unique_ptr<Capture> capture = std::move(it->second);
    captures().erase(it);
    return capture;
}

void discard_capture(cudaStream_t stream)
{
    captures().erase(stream);
}

void discard_all_captures()
{
    captures().clear();
}

Capture* active_capture(cudaStream_t stream)
{
    auto it = captures().find(stream);
    return it == captures().end() ? nullptr : it->second.get();
}

Capture* capture_with_id(unsigned long long id)
{
    for (auto& [stream, capture] : captures())
        if (capture->id == id)
            return capture.get();
    return nullptr;
}

Capture* capture_for(const char* api, cudaStream_t stream, cudaError_t& error)
{
    error = cudaSuccess;
    if (Capture* capture = active_capture(stream)) {
        if (!capture->invalidated())
            return capture;
        error = fail_call(api, cudaErrorStreamCaptureInvalidated,
                          "the stream's capture was invalidated by " + capture->invalidated_by +
                              "; end it with cudaStreamEndCapture");
        return nullptr;
    }
    error = check_legacy_stream(api, stream);
    return nullptr;
}

cudaError_t open_stream_call(const char* api, cudaStream_t stream, Capture*& capture, bool waits)
{
    capture = nullptr;
    if (cudaError_t e = waits ? synchronize_with_device() : sticky_error())
        return e;
    if (!is_valid_stream(stream))
        return fail_call(api, cudaErrorInvalidResourceHandle, "unknown stream");
    cudaError_t error = cudaSuccess;
    capture = capture_for(api, stream, error);
    return error;
}

cudaError_t fail_stream_call(Capture* capture, const char* api, cudaError_t e, const std::string& why)
{
    if (!capture)
        return fail_call(api, e, why);
    invalidate_capture(*capture, api);
    return fail_call(api, e, why + "; the capture is invalidated");
}

cudaError_t check_legacy_stream(const char* api, cudaStream_t stream, bool invalidates)
{
    if (!is_legacy_stream(stream))
        return cudaSuccess;
    bool blocked = false;
    for (auto& [capturing, capture] : captures()) {
        if (!synchronizes_with_legacy_stream(capturing))
            continue;
        blocked = true;
        if (invalidates)
            invalidate_capture(*capture, api);
    }
    if (!blocked)
        return cudaSuccess;
    return fail_call(api, cudaErrorStreamCaptureImplicit,
                     std::string("the legacy default stream would wait for a capturing stream created without "
                                 "cudaStreamNonBlocking") +
                         (invalidates ? "; the capture is invalidated" : ""));
}

cudaError_t check_stream_wait(const char* api, cudaStream_t stream)
{
    if (Capture* capture = active_capture(stream))
        return fail_stream_call(
            capture, api, cudaErrorStreamCaptureUnsupported,
            "the stream is capturing: its work is recorded, not run, so there is nothing to wait for");
    if (cudaError_t e = check_legacy_stream(api, stream))
        return e;
    return check_unsafe_call(api);
}

cudaError_t check_unsafe_call(const char* api)
{
    std::vector<Capture*> forbidding = captures_forbidding_unsafe_calls();
    if (forbidding.empty())
        return cudaSuccess;
    for (Capture* capture : forbidding)
        invalidate_capture(*capture, api);
    return fail_call(
        api, cudaErrorStreamCaptureUnsupported,
        "not permitted while a stream captures in global or thread-local mode; the capture is invalidated");
}

cudaError_t check_device_synchronize(const char* api)
{
    if (captures().empty())
        return cudaSuccess;
    for (auto& [stream, capture] : captures())
        invalidate_capture(*capture, api);
    return fail_call(api, cudaErrorStreamCaptureUnsupported,
                     "a stream is capturing: its work is recorded, not run; the capture is invalidated");
}

cudaStreamCaptureMode exchange_thread_capture_mode(cudaStreamCaptureMode mode)
{
    cudaStreamCaptureMode previous = thread_mode;
    thread_mode = mode;
    return previous;
}

}  // namespace cudasim
