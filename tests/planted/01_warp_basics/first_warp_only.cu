// Planted bug for lesson 01's grader: threadIdx.x == 0 instead of lane 0: only the first warp of each block adds its votes.
// The grader must reject this kernel (tests/CMakeLists.txt says with which message).

#include "warp_basics.hpp"

#include "course/cuda_check.hpp"
#include "course/reduction.hpp"

namespace lesson01 {
namespace {

__global__ void count_per_warp(const int* data, std::size_t n, int threshold, unsigned long long* count)
{
    const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    (void)n;
    (void)i;
    const bool below = i < n && data[i] < threshold;
    const unsigned votes = __ballot_sync(0xffffffffu, below);
    if (threadIdx.x == 0 && votes != 0)
        atomicAdd(count, static_cast<unsigned long long>(__popc(votes)));
}

}  // namespace

void launch_count_per_warp(const int* data, std::size_t n, int threshold, unsigned long long* count,
                           unsigned block, cudaStream_t stream)
{
    COURSE_CUDA_CHECK(cudaMemsetAsync(count, 0, sizeof *count, stream));
    count_per_warp<<<course::blocks_for(n, block), block, 0, stream>>>(data, n, threshold, count);
}

}  // namespace lesson01
