// Lesson 01 reference solution, exercise 2: counting with one atomic per warp.
//
//   ./course run 01 --solution

#include "warp_basics.cuh"

//! [count_per_warp]
extern "C" __global__ void count_per_warp(const int* data, std::size_t n, int threshold, unsigned long long* count)
{
    const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    // Threads past the end vote "no" rather than branching around the vote: the full mask names
    // all 32 lanes (blocks are multiples of 32 threads, so they all exist), and a lane still
    // running elsewhere while the others vote would make the call undefined.
    const bool below = i < n && data[i] < threshold;
    const unsigned votes = __ballot_sync(0xffffffffu, below);
    // Bit k of votes is lane k's answer; every lane receives the same word.
    if (threadIdx.x % warpSize == 0 && votes != 0)
        atomicAdd(count, static_cast<unsigned long long>(__popc(votes)));
}
//! [count_per_warp]
