#pragma once
/// @file reduce_sum_launch.hpp
/// @brief Lesson 05: the launch choices the student states as data in their module
/// (`reduce_sum_launch`, declared in global_reduction.cuh). Plain C++ with no CUDA keyword, so
/// that the student's device code and the lesson's host code (global_reduction.hpp) share one
/// definition, byte for byte.

#include <cstdint>

namespace lesson05 {

/// How the lesson launches the student's two kernels. The lesson checks every field before the
/// first launch and refuses a bad one with "bad configuration:", naming it.
struct ReduceSumLaunch {
    /// Threads per block of phase 1: a power of two from 32 to 1024, and no more than phase_one
    /// can run (its `__launch_bounds__`, its registers).
    std::uint32_t phase_one_block;
    /// At most this many phase-1 blocks per SM: the grid is
    /// min(ceil(n / phase_one_block), max_blocks_per_sm x the device's SM count). At least 1.
    std::uint32_t max_blocks_per_sm;
    /// Threads of phase 2's one block: a power of two from 32 to 1024, and no more than phase_two
    /// can run.
    std::uint32_t phase_two_block;
};

}  // namespace lesson05
