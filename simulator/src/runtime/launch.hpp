// Kernel launch entry point shared by <<<...>>>, cudaLaunchKernel,
// cudaLaunchCooperativeKernel and graph replay.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include <cuda_runtime_api.h>

#include "ptx/ir.hpp"
#include "runtime/state.hpp"

namespace cudasim {

// cooperative: cudaLaunchCooperativeKernel's launch, whose grid must be resident at once.
cudaError_t launchKernel(const void* hostFunction, dim3 grid, dim3 block, void** args, size_t dynamicSmem,
                         cudaStream_t stream, bool cooperative = false);

// A launch that passed the checks, with its arguments copied: what a graph's
// kernel node holds.
struct PreparedLaunch {
    const ptx::Kernel* kernel = nullptr;
    FunctionEntry* entry = nullptr;
    dim3 grid, block;
    size_t dynamicSmem = 0;
    std::vector<uint8_t> params;  // the kernel's parameter space
    bool cooperative = false;
};

// Runs the kernel, writes its printf output, updates the counters and the
// modelled clock and records a fault. Call with runtime().mutex held.
void runLaunch(const PreparedLaunch& launch);

}  // namespace cudasim
