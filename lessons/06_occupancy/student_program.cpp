// Lesson 06: the main of the student program. The lesson builds it with the student's
// occupancy_calculator.cpp and launch_config.cpp into a program of its own, without the CUDA
// runtime (modules/<exercise|solution>/06_occupancy/student_program); the grader, the host check
// and the demo run that program, write their questions on its standard input and check the answers
// it prints (occupancy_protocol.hpp, course/student_program.hpp). The student's functions never
// run inside the program that judges them.
//
//   build/sim/modules/solution/06_occupancy/student_program <<< "theoretical_occupancy 9 0 132 32 1024
//   2048 32 65536 65536 49152 232448 233472 1024 2147483647 65535 65535 40 0 1024 232448 -1 64 0"
//                     (one line) -> 24 48 0.75 2: the lesson's worked example, limited by registers

#include "occupancy.hpp"
#include "occupancy_protocol.hpp"

#include <algorithm>
#include <cstddef>
#include <exception>
#include <iomanip>
#include <iostream>
#include <limits>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace lesson06 {
namespace {

constexpr std::size_t KiB = 1024;

}  // namespace

AllocationRules allocation_rules(const DeviceProperties& device)
{
    AllocationRules rules;
    // Volta and Turing hand out shared memory in 256-byte pieces, Ampere and later in 128.
    rules.shared_unit = device.major >= 8 ? 128 : 256;
    // The carve-outs each architecture offers, in KiB (CUDA C++ Programming Guide, compute capabilities).
    std::vector<std::size_t> kib;
    if (device.major == 7 && device.minor == 5)
        kib = {32, 64};
    else if (device.major == 7)
        kib = {0, 8, 16, 32, 64, 96};
    else if (device.major == 8 && (device.minor == 0 || device.minor == 7))
        kib = {0, 8, 16, 32, 64, 100, 132, 164};
    else if (device.major == 8 || device.major == 12)
        kib = {0, 8, 16, 32, 64, 100};
    else
        kib = {0, 8, 16, 32, 64, 100, 132, 164, 196, 228};
    // Never more than the device has.
    for (const std::size_t size : kib)
        if (size * KiB <= device.sharedMemPerMultiprocessor)
            rules.shared_configs.push_back(size * KiB);
    if (rules.shared_configs.empty() || rules.shared_configs.back() < device.sharedMemPerMultiprocessor)
        rules.shared_configs.push_back(device.sharedMemPerMultiprocessor);
    return rules;
}

}  // namespace lesson06

namespace {

using namespace lesson06;

/// Reads a question's device and kernel; false when the line is short of numbers.
bool read_device_and_kernel(std::istream& in, DeviceProperties& device, KernelAttributes& kernel)
{
    protocol::for_each_device_field(device, [&](auto& field) { in >> field; });
    protocol::for_each_kernel_field(kernel, [&](auto& field) { in >> field; });
    return bool(in);
}

/// Answers one question on `out`; false when the line is not a question of this lesson.
bool answer(const std::string& line, std::ostream& out)
{
    std::istringstream in(line);
    std::string verb;
    in >> verb;
    DeviceProperties device;
    KernelAttributes kernel;
    if (verb == protocol::kOccupancyQuestion) {
        int block_size = 0;
        std::size_t dynamic_shared_bytes = 0;
        if (!read_device_and_kernel(in, device, kernel) || !(in >> block_size >> dynamic_shared_bytes))
            return false;
        const OccupancyResult result = theoretical_occupancy(device, kernel, block_size, dynamic_shared_bytes);
        out << result.blocks_per_sm << ' ' << result.warps_per_sm << ' ' << result.occupancy << ' '
            << static_cast<int>(result.limiter) << '\n';
        return true;
    }
    if (verb == protocol::kLaunchQuestion) {
        std::size_t n = 0;
        if (!read_device_and_kernel(in, device, kernel) || !(in >> n))
            return false;
        const LaunchConfig config = choose_launch_config(device, kernel, n);
        out << config.grid << ' ' << config.block << ' ' << config.dynamic_shared_bytes << '\n';
        return true;
    }
    return false;
}

}  // namespace

int main()
{
    std::ios::sync_with_stdio(false);
    // Every digit of a double: the judge compares the occupancy to 1e-9.
    std::cout << std::setprecision(std::numeric_limits<double>::max_digits10);
    std::string line;
    try {
        while (std::getline(std::cin, line)) {
            if (!answer(line, std::cout)) {
                std::cerr << "student_program: not a question of lesson 06: " << line << '\n';
                return 2;
            }
        }
    } catch (const std::exception& error) {
        std::cerr << "student_program: your function threw an exception (" << error.what()
                  << ") on the question: " << line << '\n';
        return 3;
    }
    std::cout.flush();
    return std::cout ? 0 : 1;
}
