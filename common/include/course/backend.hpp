#pragma once
/// @file backend.hpp
/// @brief Which back end this build runs on: a GPU, or the CPU simulator (preset "sim").
///
/// The same lesson sources build for both. On the simulator a grader checks correctness exactly
/// as on a GPU, on smaller inputs, and replaces each timing by a technique check on the
/// simulator's counters (kernel_profile.hpp): the reason the kernel is fast, not its speed.

#include <cstddef>

#ifndef COURSE_ON_SIMULATOR
#define COURSE_ON_SIMULATOR 0
#endif

namespace course {

/// True in a build whose CUDA code runs on the CPU simulator.
inline constexpr bool kOnSimulator = COURSE_ON_SIMULATOR != 0;

/// The heading of a demo's time column: on the simulator the times come from its timing model.
inline constexpr const char* kTimeColumn = kOnSimulator ? "modelled ms" : "median ms";

/// A problem size for this back end: `gpu` on a GPU, `simulator` on the simulator, where every
/// warp instruction is interpreted (about 25 million per second per core).
[[nodiscard]] constexpr std::size_t size_for_backend(std::size_t gpu, std::size_t simulator)
{
    return kOnSimulator ? simulator : gpu;
}

}  // namespace course
