#include "course/watchdog.hpp"
#include "course/failures.hpp"

#include <cstdlib>
#include <iostream>
#include <string>
#include <thread>
#include <utility>

namespace course {

void start_watchdog(std::chrono::seconds limit, std::function<void(const std::string&)> on_timeout)
{
    std::thread([limit, on_timeout = std::move(on_timeout)] {
        std::this_thread::sleep_for(limit);
        const std::string message = failure::timeout.with(
            "still running after " + std::to_string(limit.count()) +
            " s; a kernel that never finishes (an endless loop, or a __syncthreads() that some threads of a block "
            "never reach) is the usual cause");
        std::cerr << message << '\n' << std::flush;
        if (on_timeout)
            on_timeout(message);
        std::_Exit(124);
    }).detach();
}

}  // namespace course
