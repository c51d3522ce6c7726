// Planted bug for lesson 01's grader: the predicate is <= instead of <: elements equal to the threshold are counted too.
// The grader must reject this kernel (tests/planted/01_warp_basics/CMakeLists.txt says with which
// message).

#include "warp_basics.cuh"

extern "C" __global__ void count_per_warp(const int* data, std::size_t n, int threshold, unsigned long long* count)
{
    const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    const bool below = i < n && data[i] <= threshold;
    const unsigned votes = __ballot_sync(0xffffffffu, below);
    if (threadIdx.x % warpSize == 0 && votes != 0)
        atomicAdd(count, static_cast<unsigned long long>(__popc(votes)));
}
