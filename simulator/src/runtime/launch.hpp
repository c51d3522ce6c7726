// Kernel launch entry point shared by <<<...>>> and cudaLaunchKernel.
#pragma once

#include <cuda_runtime_api.h>

namespace cudasim {

cudaError_t launchKernel(const void* hostFunction, dim3 grid, dim3 block, void** args,
                         size_t dynamicSmem, cudaStream_t stream);

// Checks a stream handle: 0, the legacy/per-thread handles or a live stream.
bool isValidStream(cudaStream_t stream);

}  // namespace cudasim
