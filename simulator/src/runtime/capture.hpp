// Stream capture. While a stream captures, work submitted to it is recorded
// as graph nodes instead of run. Calls that CUDA refuses during a capture
// fail with the runtime's error and invalidate the capture they conflict
// with; cudaStreamEndCapture then returns cudaErrorStreamCaptureInvalidated
// and no graph. Every function here expects runtime().mutex to be held.
#pragma once

#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <cuda_runtime_api.h>

#include "runtime/graph.hpp"

namespace cudasim {

struct Capture {
    cudaStream_t stream = nullptr;
    cudaStreamCaptureMode mode = cudaStreamCaptureModeGlobal;
    std::thread::id thread;     // the thread that began it
    unsigned long long id = 0;  // unique in the process (cudaStreamGetCaptureInfo)
    std::vector<GraphNode> nodes;
    std::string invalidated_by;  // the call that invalidated it; empty while valid
    bool invalidated() const { return !invalidated_by.empty(); }
};

Capture& begin_capture(cudaStream_t stream, cudaStreamCaptureMode mode);
// Takes the capture off its stream.
std::unique_ptr<Capture> end_capture(cudaStream_t stream);
// Drops the capture of a destroyed stream, or every capture (cudaDeviceReset).
void discard_capture(cudaStream_t stream);
void discard_all_captures();

// The capture of `stream` (valid or invalidated), or nullptr.
Capture* active_capture(cudaStream_t stream);
Capture* capture_with_id(unsigned long long id);

// For work submitted to `stream`: the capture to record it into, or nullptr
// to run it now. Fails (`error` set, nullptr returned) if the stream's
// capture was invalidated, or if `stream` is the legacy stream while a
// blocking stream captures (cudaErrorStreamCaptureImplicit; that capture is
// invalidated).
Capture* capture_for(const char* api, cudaStream_t stream, cudaError_t& error);

// The opening every call that submits work to a stream shares: the sticky error (for a call
// that waits for the device, `waits`, a pending kernel fault too), a known stream, then
// capture_for's capture (`capture`, nullptr to run the work now). cudaSuccess, or the error the
// call returns. Call with runtime().mutex held.
cudaError_t open_stream_call(const char* api, cudaStream_t stream, Capture*& capture, bool waits = false);

// Marks the capture invalidated by `api` (the first such call is kept).
void invalidate_capture(Capture& capture, const char* api);

// Reports a failing call that submitted work to a stream; if the stream is
// capturing (`capture` not null), the capture is invalidated.
cudaError_t fail_stream_call(Capture* capture, const char* api, cudaError_t e, const std::string& why);

// cudaErrorStreamCaptureImplicit if `stream` is the legacy stream while a
// blocking stream captures; invalidates those captures if `invalidates`.
cudaError_t check_legacy_stream(const char* api, cudaStream_t stream, bool invalidates = true);

// For cudaStreamSynchronize/cudaStreamQuery: a capturing stream has nothing
// to wait for (cudaErrorStreamCaptureUnsupported), the legacy stream may be
// blocked, and waiting for any other stream is a potentially unsafe call.
cudaError_t check_stream_wait(const char* api, cudaStream_t stream);

// Calls CUDA counts as potentially unsafe during capture (cudaMalloc,
// cudaFree, waiting for the device from the host): refused with
// cudaErrorStreamCaptureUnsupported when the calling thread's capture
// interaction mode forbids them (see cudaThreadExchangeStreamCaptureMode);
// the captures that forbid them are invalidated.
cudaError_t check_unsafe_call(const char* api);

// cudaDeviceSynchronize would wait for every stream, capturing ones included:
// refused in any mode while a capture is active, invalidating every capture.
cudaError_t check_device_synchronize(const char* api);

// Sets the calling thread's capture interaction mode, returns the old one.
cudaStreamCaptureMode exchange_thread_capture_mode(cudaStreamCaptureMode mode);

}  // namespace cudasim
