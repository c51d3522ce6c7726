#pragma once
/// @file reduce_once_launch.hpp
/// @brief Lesson 09: the launch choices the student states as data in their module
/// (`reduce_once_launch`, declared in one_launch.cuh). Plain C++ with no CUDA keyword, so that the
/// student's device code and the lesson's host code (one_launch.hpp) share one definition.

#include <cstdint>

namespace lesson09 {

/// How the lesson launches the student's reduce_once. The lesson checks every field before the
/// first launch and refuses a bad one with "bad configuration:", naming it.
///
/// The grid for n elements is ceil(n / (block x items_per_thread)) blocks, at least 1, at most
/// max_blocks_per_sm x the device's SM count: a small array gets few blocks (one, below
/// block x items_per_thread elements), a large one a single wave.
struct ReduceOnceLaunch {
    /// Threads per block: a power of two from 32 to 1024, and no more than reduce_once can run
    /// (its `__launch_bounds__`, its registers).
    std::uint32_t block;
    /// The fewest elements each thread adds before the grid grows by another block. At least 1.
    std::uint32_t items_per_thread;
    /// At most this many blocks per SM. At least 1.
    std::uint32_t max_blocks_per_sm;
    /// 0: an ordinary launch. 1: a cooperative launch (cudaLaunchCooperativeKernel), which lets
    /// the kernel wait for the whole grid (cooperative_groups::this_grid().sync()) and so needs
    /// every block resident at once: max_blocks_per_sm may then be no more than the blocks of
    /// reduce_once one SM holds.
    std::uint32_t cooperative;
};

}  // namespace lesson09
