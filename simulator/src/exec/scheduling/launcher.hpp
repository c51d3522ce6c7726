// Runs all blocks of a kernel launch on the thread pool.
#pragma once

#include <cstdint>
#include <cudasim/counters.hpp>
#include <string>

#include "exec/scheduling/launch_context.hpp"

namespace cudasim {

struct LaunchResult {
    cudaError_t error = cudaSuccess;
    std::string message;  // fault description, empty on success
    Counts counts;
    uint64_t atomics_on_hottest_address = 0;
    std::string printf_output;  // device printf output, in block order
};

// Blocks are handed out dynamically; a race-free kernel gives the same
// results for any number of workers. A launch with a grid workspace (a
// kernel that syncs its grid) keeps as many blocks resident as the device
// holds, side by side.
LaunchResult execute_kernel(LaunchContext& launch);

// Whether the kernel reads its grid workspace (%envreg1, %envreg2): cooperative groups' grid.sync().
bool kernel_syncs_grid(const ptx::Kernel& kernel);

}  // namespace cudasim
