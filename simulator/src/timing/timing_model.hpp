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
    int warps_per_block = 1;
    int blocks_per_sm_limit = 1;  // what registers, shared memory and thread slots allow
};

// Fills c's occupancy fields, model terms and modelled_milliseconds from c.counts and
// c.atomics_on_hottest_address.
void model_kernel(LaunchCounters& c, const LaunchShape& shape);
double model_copy_milliseconds(uint64_t bytes, cudaMemcpyKind kind);

}  // namespace cudasim
