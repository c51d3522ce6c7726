// Planted bug for lesson 03's grader: index = 2 * tid, the stride forgotten: from the second step on, threads add the wrong pairs.
// The grader must reject this kernel (tests/CMakeLists.txt says with which message).

#include "neighbored_reduction.hpp"

namespace lesson03 {
namespace {

__global__ void reduce_neighbored_less(int* data, int* partials, std::size_t n)
{
    const unsigned tid = threadIdx.x;
    const std::size_t first = std::size_t(blockIdx.x) * blockDim.x;
    int* block_data = data + first;
    const unsigned count = n - first < blockDim.x ? unsigned(n - first) : blockDim.x;

    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
        const unsigned index = 2 * tid;
        if (index + stride < count)
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
