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
cudaError_t launch_kernel(const void* host_function, dim3 grid, dim3 block, void** args, size_t dynamic_smem,
                          cudaStream_t stream, bool cooperative = false);

// A launch that passed the checks, with its arguments copied: what a graph's
// kernel node holds.
struct PreparedLaunch {
    const ptx::Kernel* kernel = nullptr;
    FunctionEntry* entry = nullptr;
    dim3 grid, block;
    size_t dynamic_smem = 0;
    std::vector<uint8_t> params;  // the kernel's parameter space
    bool cooperative = false;
};

// Runs the kernel, writes its printf output, updates the counters and the
// modelled clock and records a fault. Call with runtime().mutex held.
void run_launch(const PreparedLaunch& launch);

}  // namespace cudasim
