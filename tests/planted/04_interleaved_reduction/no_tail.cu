// Planted bug for lesson 04's grader: no bound check on the partial last block (tid < stride only): it adds elements that lie past the end of the array.
// The grader must reject this kernel (tests/CMakeLists.txt says with which message).

#include "interleaved_reduction.hpp"

namespace lesson04 {
namespace {

__global__ void reduce_interleaved(int* data, int* partials, std::size_t n)
{
    const unsigned tid = threadIdx.x;
    const std::size_t first = std::size_t(blockIdx.x) * blockDim.x;
    int* block_data = data + first;
    const unsigned count = n - first < blockDim.x ? unsigned(n - first) : blockDim.x;

    (void)count;
    for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (tid < stride)
            block_data[tid] += block_data[tid + stride];
        __syncthreads();
    }
    if (tid == 0)
        partials[blockIdx.x] = block_data[0];
}

}  // namespace

void launch_reduce_interleaved(int* data, int* partials, std::size_t n, unsigned block, cudaStream_t stream)
{
    reduce_interleaved<<<course::blocks_for(n, block), block, 0, stream>>>(data, partials, n);
}

}  // namespace lesson04
