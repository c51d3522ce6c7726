// plants: nothing wrong: a right count_per_warp that counts the whole block at once with
//   __syncthreads_count, a barrier that also adds up a predicate over the block's threads; thread 0
//   sends the block's total in one atomic, fewer updates than one per warp. The grader must pass
//   it, speed included.
// replaces: count_per_warp.cu
// passes: *

#include "warp_basics.cuh"

extern "C" __global__ void count_per_warp(const int* data, std::size_t n, int threshold, unsigned long long* count)
{
    const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    // No thread returns early: every thread of the block must reach the barrier.
    const bool below = i < n && data[i] < threshold;
    const int block_total = __syncthreads_count(below);
    if (threadIdx.x == 0 && block_total != 0)
        atomicAdd(count, static_cast<unsigned long long>(block_total));
}
