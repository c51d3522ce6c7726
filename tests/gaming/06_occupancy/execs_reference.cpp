// Gaming attempt: before main, the program replaces itself with the course's reference program
// (execve of modules/solution/06_occupancy/student_program, found beside its own path), which
// would then answer every question right. The calculator below is deliberately wrong, so the
// attempt passes only if the exec does. The judge's sandbox (Landlock) lets the program execute
// nothing but itself.
//
// replaces: occupancy_calculator.cpp
// expect: ^fail: wrong occupancy: theoretical_occupancy

#include "occupancy.hpp"

#include <string>

#include <unistd.h>

namespace {

const bool replaced = [] {
    char self[4096] = {};
    if (readlink("/proc/self/exe", self, sizeof self - 1) <= 0)
        return false;
    const std::string path = self;
    const auto modules = path.find("/modules/");
    if (modules == std::string::npos)
        return false;
    const std::string reference = path.substr(0, modules) + "/modules/solution/06_occupancy/student_program";
    char* const argv[] = {const_cast<char*>(reference.c_str()), nullptr};
    char* const envp[] = {nullptr};
    execve(reference.c_str(), argv, envp);
    return false;
}();

}  // namespace

namespace lesson06 {

OccupancyResult theoretical_occupancy(const DeviceProperties&, const KernelAttributes&, int, std::size_t)
{
    return {1, 1, 0.0, replaced ? Limiter::registers : Limiter::warp_slots};
}

}  // namespace lesson06
