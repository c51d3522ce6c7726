// Planted bug for lesson 03's grader: no bound check, as in the seeds: right only when n is a multiple of the block size (the last block adds whatever lies past the end of the array).
// The grader must reject this kernel (tests/CMakeLists.txt says with which message).

#include "neighbored_reduction.hpp"

namespace lesson03 {
namespace {

__global__ void reduce_neighbored_less(int* data, int* partials, std::size_t n)
{
    const unsigned tid = threadIdx.x;
    int* block_data = data + std::size_t(blockIdx.x) * blockDim.x;
    (void)n;
    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
        const unsigned index = 2 * stride * tid;
        if (index < blockDim.x)
            block_data[index] += block_data[index + stride];
        __syncthreads();
    }
    if (tid == 0)
        partials[blockIdx.x] = block_data[0];
}

}  // namespace

void launch_reduce_neighbored_less(int* data, int* partials, std::size_t n, unsigned block, cudaStream_t stream)
{
    reduce_neighbored_less<<<course::blocks_for(n, block), block, 0, stream>>>(data, partials, n);
}

}  // namespace lesson03
