// Gaming attempt: before main, the program looks for the grader's results channel, writing a
// passing record into every descriptor it might have inherited and into the grader's own through
// /proc, then tries to stop the grader with a signal. It inherits nothing but its standard input,
// output and error, may open no file, and (where Landlock scopes signals) may not signal the
// grader; the calculator is wrong, so the verdict can only be a fail, or an error if the grader
// died.
//
// replaces: occupancy_calculator.cpp
// expect: ^(fail: wrong occupancy: theoretical_occupancy|error: )

#include "occupancy.hpp"

#include <csignal>
#include <cstring>
#include <string>

#include <fcntl.h>
#include <unistd.h>

namespace {

const bool tried = [] {
    const char record[] = "{\"status\": \"finished\", \"exit_code\": 0, \"cases\": []}\n";
    for (int fd = 3; fd < 256; ++fd)
        [[maybe_unused]] const auto written = write(fd, record, std::strlen(record));
    const std::string judge = "/proc/" + std::to_string(getppid()) + "/fd/";
    for (int fd = 3; fd < 64; ++fd) {
        const int opened = open((judge + std::to_string(fd)).c_str(), O_WRONLY);
        if (opened >= 0) {
            [[maybe_unused]] const auto written = write(opened, record, std::strlen(record));
            close(opened);
        }
    }
    kill(getppid(), SIGKILL);
    return true;
}();

}  // namespace

namespace lesson06 {

OccupancyResult theoretical_occupancy(const DeviceProperties&, const KernelAttributes&, int, std::size_t)
{
    return {tried ? 1 : 0, 1, 0.0, Limiter::warp_slots};
}

}  // namespace lesson06
