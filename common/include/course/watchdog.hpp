#pragma once
/// @file watchdog.hpp
/// @brief Ends a grader whose kernel never finishes, with a message instead of a silent hang.

#include <chrono>
#include <functional>
#include <string>

namespace course {

/// Starts a background thread that, if the process is still running after `limit` (not counting
/// its waits for another grader's turn on the GPU, course/gpu_sharing.hpp), prints why it is stopping, hands the same message to `on_timeout` (a grader records it in its results) and
/// ends the process with exit code 124 (the code `timeout` uses). A kernel that loops forever or
/// waits at a barrier some threads never reach is the usual cause.
void start_watchdog(std::chrono::seconds limit, std::function<void(const std::string&)> on_timeout = {});

/// The demos' watchdog: ends the process with the same message and exit code 124 when no CUDA call
/// checked with COURSE_CUDA_CHECK has returned for `limit` (a demo may run long, each call may not:
/// a kernel that never finishes blocks the next synchronising call). `how_to_extend` is appended to
/// the message.
void start_idle_watchdog(std::chrono::seconds limit, std::string how_to_extend);

namespace detail {
/// The process waited `waited` for its turn on the GPU: start_watchdog's limit is moved by as much.
void note_gpu_wait(std::chrono::steady_clock::duration waited) noexcept;
}  // namespace detail

}  // namespace course
