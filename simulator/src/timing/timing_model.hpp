// Modelled device time of kernels and copies on an H100 SXM, used for cudaEventElapsedTime and
// the counters (see README, "Timing model").
#pragma once

#include <cstdint>
#include <cudasim/counters.hpp>

#include <cuda_runtime_api.h>

namespace cudasim {

// The launch's shape as the model needs it.
struct LaunchShape {
    uint64_t blocks = 1;
    int warpsPerBlock = 1;
    int blocksPerSmLimit = 1;  // what registers, shared memory and thread slots allow
};

// Fills c's occupancy fields, model terms and modelledMilliseconds from c.counts and
// c.atomicsOnHottestAddress.
void modelKernel(LaunchCounters& c, const LaunchShape& shape);
double modelCopyMilliseconds(uint64_t bytes, cudaMemcpyKind kind);

}  // namespace cudasim
