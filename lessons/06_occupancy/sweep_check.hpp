#pragma once
/// @file sweep_check.hpp
/// @brief Lesson 06: the checks of exercise 1 that need no GPU, shared by the grader and the host
/// check (both doctest programs; nothing else includes this file). Each check is one run of the
/// student program.

#include "occupancy_lesson.hpp"

#include "course/failures.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

namespace lesson06 {

/// Reports at most `shown` mismatches in full, then how many there were.
inline void report_mismatches(const SweepReport& report, const std::string& what, std::size_t shown = 3)
{
    // The fix stays in the hints: a mismatch says what differs, and where to ask for help.
    for (std::size_t i = 0; i < report.mismatches.size() && i < shown; ++i)
        FAIL_CHECK(report.mismatches[i] << " Hints, one at a time: ./course hint 06");
    if (report.mismatches.size() > shown)
        FAIL_CHECK(course::failure::wrong_occupancy << " theoretical_occupancy differs in " << report.mismatches.size()
                                                    << " of " << report.cases << " " << what);
    if (report.mismatches.empty())
        MESSAGE("theoretical_occupancy agrees in all " << report.cases << " " << what);
}

/// Worked examples of the lesson text, on the H100 described by hand.
inline void check_worked_examples()
{
    struct Example {
        int registers;
        int block;
        std::size_t dynamic_bytes;
        int blocks;
        Limiter limiter;
    };
    // README, "Working it out": each line is one of the lesson's worked examples.
    const Example examples[] = {
        {32, 256, 0, 8, Limiter::warp_slots},             // everything fits: 64 warps
        {40, 64, 0, 24, Limiter::registers},              // 1280 registers/warp, 12 warps per quarter
        {64, 128, 0, 8, Limiter::registers},              // 2048 registers/warp: 32 warps
        {255, 256, 0, 1, Limiter::registers},             // 8192 registers/warp: 8 warps
        {16, 32, 0, 32, Limiter::block_slots},            // 32 one-warp blocks: half the warp slots
        {32, 128, 22 * 1024, 9, Limiter::shared_memory},  // 23 KiB per block with the reserved 1 KiB
    };
    const cudaDeviceProp device = h100_properties();
    std::vector<OccupancyCase> cases;
    for (const auto& example : examples) {
        cudaFuncAttributes kernel{};
        kernel.numRegs = example.registers;
        kernel.maxThreadsPerBlock = 1024;
        kernel.maxDynamicSharedSizeBytes = int(device.sharedMemPerBlockOptin);
        kernel.preferredShmemCarveout = -1;
        CalculatorAnswer expected{example.blocks, {example.limiter}};
        if (example.registers == 32 && example.block == 256)
            expected.limiters.push_back(Limiter::registers);  // 64 warps by registers too: a tie
        cases.push_back({"example", kernel, example.block, example.dynamic_bytes, expected});
    }
    for (const auto& mismatch :
         check_student_calculator(device, device.name, cases, "worked example of the lesson: ").mismatches)
        FAIL_CHECK(mismatch);
}

/// The sweep against NVIDIA's calculator on the H100 and the T4 described by hand.
inline void check_sweep_on_described_devices()
{
    for (const auto& device : {h100_properties(), t4_properties()})
        report_mismatches(sweep_against_calculator(device, device.name),
                          std::string("configurations of synthetic kernels on the ") + device.name);
}

}  // namespace lesson06
