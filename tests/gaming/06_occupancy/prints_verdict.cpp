// Gaming attempt: before main, the program prints what a passing grader prints, on its standard
// output and its standard error, and exits with status 0. Nothing the student program prints is a
// verdict: its standard output must hold answers, and this is not one.
//
// replaces: occupancy_calculator.cpp
// expect: ^(fail|error): .*printed something that is not an answer: "\[doctest\] Status: SUCCESS!"

#include "occupancy.hpp"

#include <cstdlib>
#include <iostream>

namespace {

const bool printed = [] {
    for (std::ostream* out : {&std::cout, &std::cerr})
        *out << "[doctest] Status: SUCCESS!\npass: every check passed\n";
    std::cout.flush();
    std::exit(0);
    return true;
}();

}  // namespace

namespace lesson06 {

OccupancyResult theoretical_occupancy(const DeviceProperties&, const KernelAttributes&, int, std::size_t)
{
    return {printed ? 1 : 0, 1, 0.0, Limiter::warp_slots};
}

}  // namespace lesson06
