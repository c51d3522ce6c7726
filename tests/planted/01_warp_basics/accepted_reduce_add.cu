// plants: nothing wrong: a right count_per_warp that adds the warp's 0/1 answers with
//   __reduce_add_sync (one redux.sync) instead of counting the bits of a ballot; lane 0 sends the
//   warp's total in one atomic. The grader must pass it, speed included.
// replaces: count_per_warp.cu
// passes: *

#include "warp_basics.cuh"

extern "C" __global__ void count_per_warp(const int* data, std::size_t n, int threshold, unsigned long long* count)
{
    const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    // Every lane takes part in the reduction (blocks are whole warps); lanes past n add 0.
    const unsigned below = i < n && data[i] < threshold ? 1u : 0u;
    const unsigned warp_total = __reduce_add_sync(0xffffffffu, below);
    if (threadIdx.x % warpSize == 0 && warp_total != 0)
        atomicAdd(count, static_cast<unsigned long long>(warp_total));
}
