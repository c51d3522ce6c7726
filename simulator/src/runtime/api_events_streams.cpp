// Streams and events. Work runs synchronously at submission, so streams
// only need to exist; events capture the simulated device clock.
#include <memory>
#include <mutex>
#include <set>

#include <cuda_runtime_api.h>

#include "runtime/launch.hpp"
#include "runtime/state.hpp"

using namespace cudasim;

struct CUstream_st {
  unsigned flags = 0;
};

struct CUevent_st {
  unsigned flags = 0;
  bool recorded = false;
  double timeMs = 0;
};

namespace {
std::set<cudaStream_t>& streams() {
  static std::set<cudaStream_t> s;
  return s;
}
std::set<cudaEvent_t>& events() {
  static std::set<cudaEvent_t> e;
  return e;
}
}  // namespace

namespace cudasim {
bool isValidStream(cudaStream_t stream) {
  return stream == nullptr || stream == cudaStreamLegacy || stream == cudaStreamPerThread ||
         streams().count(stream) > 0;
}
}  // namespace cudasim

extern "C" {

cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned int flags) {
  std::lock_guard lock(runtime().mutex);
  if (cudaError_t e = stickyError()) return e;
  if (!stream) return failCall("cudaStreamCreate", cudaErrorInvalidValue, "stream is NULL");
  *stream = new CUstream_st{flags};
  streams().insert(*stream);
  return cudaSuccess;
}

cudaError_t cudaStreamCreate(cudaStream_t* stream) { return cudaStreamCreateWithFlags(stream, 0); }

cudaError_t cudaStreamCreateWithPriority(cudaStream_t* stream, unsigned int flags, int) {
  return cudaStreamCreateWithFlags(stream, flags);
}

cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  std::lock_guard lock(runtime().mutex);
  if (!streams().erase(stream)) return failCall("cudaStreamDestroy", cudaErrorInvalidResourceHandle, "unknown stream");
  delete stream;
  return cudaSuccess;
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
  std::lock_guard lock(runtime().mutex);
  if (cudaError_t e = synchronizeWithDevice()) return e;
  if (!isValidStream(stream)) return failCall("cudaStreamSynchronize", cudaErrorInvalidResourceHandle, "unknown stream");
  return cudaSuccess;
}

cudaError_t cudaStreamQuery(cudaStream_t stream) { return cudaStreamSynchronize(stream); }

cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int) {
  std::lock_guard lock(runtime().mutex);
  if (cudaError_t e = stickyError()) return e;
  if (!isValidStream(stream) || !events().count(event))
    return failCall("cudaStreamWaitEvent", cudaErrorInvalidResourceHandle, "unknown stream or event");
  return cudaSuccess;
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int flags) {
  std::lock_guard lock(runtime().mutex);
  if (cudaError_t e = stickyError()) return e;
  if (!event) return failCall("cudaEventCreate", cudaErrorInvalidValue, "event is NULL");
  *event = new CUevent_st{flags};
  events().insert(*event);
  return cudaSuccess;
}

cudaError_t cudaEventCreate(cudaEvent_t* event) { return cudaEventCreateWithFlags(event, 0); }

cudaError_t cudaEventDestroy(cudaEvent_t event) {
  std::lock_guard lock(runtime().mutex);
  if (!events().erase(event)) return failCall("cudaEventDestroy", cudaErrorInvalidResourceHandle, "unknown event");
  delete event;
  return cudaSuccess;
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
  std::lock_guard lock(runtime().mutex);
  if (cudaError_t e = stickyError()) return e;
  if (!events().count(event) || !isValidStream(stream))
    return failCall("cudaEventRecord", cudaErrorInvalidResourceHandle, "unknown event or stream");
  event->recorded = true;
  event->timeMs = runtime().deviceClockMs;
  return cudaSuccess;
}

cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream, unsigned int) {
  return cudaEventRecord(event, stream);
}

cudaError_t cudaEventSynchronize(cudaEvent_t event) {
  std::lock_guard lock(runtime().mutex);
  if (cudaError_t e = synchronizeWithDevice()) return e;
  if (!events().count(event)) return failCall("cudaEventSynchronize", cudaErrorInvalidResourceHandle, "unknown event");
  return cudaSuccess;
}

cudaError_t cudaEventQuery(cudaEvent_t event) { return cudaEventSynchronize(event); }

cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
  std::lock_guard lock(runtime().mutex);
  if (cudaError_t e = stickyError()) return e;
  if (!ms) return failCall("cudaEventElapsedTime", cudaErrorInvalidValue, "ms is NULL");
  if (!events().count(start) || !events().count(end))
    return failCall("cudaEventElapsedTime", cudaErrorInvalidResourceHandle, "unknown event");
  if ((start->flags | end->flags) & cudaEventDisableTiming)
    return failCall("cudaEventElapsedTime", cudaErrorInvalidResourceHandle, "event created with cudaEventDisableTiming");
  if (!start->recorded || !end->recorded)
    return failCall("cudaEventElapsedTime", cudaErrorInvalidResourceHandle, "event was not recorded");
  *ms = static_cast<float>(end->timeMs - start->timeMs);
  return cudaSuccess;
}

}  // extern "C"
