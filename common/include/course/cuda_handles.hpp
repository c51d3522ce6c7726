#pragma once
/// @file cuda_handles.hpp
/// @brief Owning, non-copyable wrappers of a CUDA stream and a CUDA event.

#include "course/cuda_check.hpp"

namespace course {

/// A non-blocking stream (it does not wait for the legacy default stream), destroyed with it.
class Stream {
public:
    Stream() { COURSE_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
    Stream(const Stream&) = delete;
    Stream& operator=(const Stream&) = delete;
    ~Stream() { COURSE_CUDA_CHECK_NOEXCEPT(cudaStreamDestroy(stream_)); }
    [[nodiscard]] cudaStream_t get() const { return stream_; }

private:
    cudaStream_t stream_ = nullptr;
};

/// An event for timing (cudaEventElapsedTime between two of them).
class Event {
public:
    Event() { COURSE_CUDA_CHECK(cudaEventCreate(&event_)); }
    Event(const Event&) = delete;
    Event& operator=(const Event&) = delete;
    ~Event() { COURSE_CUDA_CHECK_NOEXCEPT(cudaEventDestroy(event_)); }
    [[nodiscard]] cudaEvent_t get() const { return event_; }

    /// Milliseconds from `start` to this event; both must have been recorded and this one reached.
    [[nodiscard]] float milliseconds_since(const Event& start) const
    {
        float milliseconds = 0;
        COURSE_CUDA_CHECK(cudaEventElapsedTime(&milliseconds, start.event_, event_));
        return milliseconds;
    }

private:
    cudaEvent_t event_ = nullptr;
};

}  // namespace course
