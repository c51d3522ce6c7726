#include "course/watchdog.hpp"
#include "course/failures.hpp"

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <ratio>
#include <string>
#include <thread>
#include <utility>

namespace course {

namespace {

constexpr const char* kUsualCause =
    "a kernel that never finishes (an endless loop, or a __syncthreads() that some threads of a block never "
    "reach) is the usual cause";

// When a checked CUDA call last returned, in steady-clock ticks.
std::atomic<std::int64_t> last_progress{std::chrono::steady_clock::now().time_since_epoch().count()};

// Time spent waiting for another grader's turn on the GPU (course/gpu_sharing.hpp), in steady-clock
// ticks: not the kernel's time, so not counted against the watchdog's limit.
std::atomic<std::int64_t> gpu_wait{0};

}  // namespace

namespace detail {
void note_progress() noexcept
{
    last_progress.store(std::chrono::steady_clock::now().time_since_epoch().count(), std::memory_order_relaxed);
}

void note_gpu_wait(std::chrono::steady_clock::duration waited) noexcept
{
    gpu_wait.fetch_add(waited.count(), std::memory_order_relaxed);
}
}  // namespace detail

void start_idle_watchdog(std::chrono::seconds limit, std::string how_to_extend)
{
    detail::note_progress();
    std::thread([limit, how_to_extend = std::move(how_to_extend)] {
        for (;;) {
            std::this_thread::sleep_for(std::chrono::seconds(1));
            const auto last = std::chrono::steady_clock::time_point(
                std::chrono::steady_clock::duration(last_progress.load(std::memory_order_relaxed)));
            if (std::chrono::steady_clock::now() - last < limit)
                continue;
            std::cerr << failure::timeout.with("no kernel finished for " + std::to_string(limit.count()) + " s; " +
                                               kUsualCause + " (" + how_to_extend + ")")
                      << '\n'
                      << std::flush;
            std::_Exit(124);
        }
    }).detach();
}

void start_watchdog(std::chrono::seconds limit, std::function<void(const std::string&)> on_timeout)
{
    const auto start = std::chrono::steady_clock::now();
    std::thread([start, limit, on_timeout = std::move(on_timeout)] {
        for (;;) {
            std::this_thread::sleep_for(std::chrono::seconds(1));
            const auto waited = std::chrono::steady_clock::duration(gpu_wait.load(std::memory_order_relaxed));
            if (std::chrono::steady_clock::now() - start - waited >= limit)
                break;
        }
        const std::string message =
            failure::timeout.with("still running after " + std::to_string(limit.count()) + " s; " + kUsualCause);
        std::cerr << message << '\n' << std::flush;
        if (on_timeout)
            on_timeout(message);
        std::_Exit(124);
    }).detach();
}

}  // namespace course
