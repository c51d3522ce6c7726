// Planted bug for lesson 04's grader: right sums, but the neighbored-less indexing in shared memory (bank conflicts): must fail the speed check.
// The grader must reject this kernel (tests/CMakeLists.txt says with which message).

#include "interleaved_reduction.hpp"

namespace lesson04 {
namespace {

__global__ void reduce_shared_interleaved(const int* data, int* partials, std::size_t n)
{
    extern __shared__ int cache[];
    const unsigned tid = threadIdx.x;
    const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + tid;

    cache[tid] = i < n ? data[i] : 0;
    __syncthreads();
    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
        const unsigned index = 2 * stride * tid;
        if (index < blockDim.x)
            cache[index] += cache[index + stride];
        __syncthreads();
    }
    if (tid == 0)
        partials[blockIdx.x] = cache[0];
}

}  // namespace

void launch_reduce_shared_interleaved(int* data, int* partials, std::size_t n, unsigned block, cudaStream_t stream)
{
    reduce_shared_interleaved<<<course::blocks_for(n, block), block, block * sizeof(int), stream>>>(data, partials, n);
}

}  // namespace lesson04
