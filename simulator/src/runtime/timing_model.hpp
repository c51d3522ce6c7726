// Modelled device time, used for cudaEventElapsedTime (see README).
#pragma once

#include <cudasim/counters.hpp>
#include <cstdint>

#include <cuda_runtime_api.h>

namespace cudasim {

double modelKernelMilliseconds(const Counts& counts, uint64_t blocks);
double modelCopyMilliseconds(uint64_t bytes, cudaMemcpyKind kind);

}  // namespace cudasim
