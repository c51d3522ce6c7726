// Lesson 03 baseline: reduceNeighbored, the in-place neighbored-pair reduction of the reduceInteger
// program of Professional CUDA C Programming (ch. 3), made safe for any n. See
// lessons/03_neighbored_reduction/README.md.
//
//   ./course run 03 --kernel neighbored

#include "neighbored_reduction.hpp"

namespace lesson03 {
namespace {

//! [reduce_neighbored]
__global__ void reduce_neighbored(int* data, int* partials, std::size_t n)
{
    const unsigned tid = threadIdx.x;
    const std::size_t first = std::size_t(blockIdx.x) * blockDim.x;
    int* block_data = data + first;
    // The last block may own fewer than blockDim.x elements.
    const unsigned count = n - first < blockDim.x ? unsigned(n - first) : blockDim.x;

    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
        // Threads 0, 2, 4, ... then 0, 4, 8, ... work: every warp holds a few of them, so every
        // warp takes the branch while most of its lanes sit idle.
        if (tid % (2 * stride) == 0 && tid + stride < count)
            block_data[tid] += block_data[tid + stride];
        // Every thread of the block reaches this barrier: no thread returned early above.
        __syncthreads();
    }
    if (tid == 0)
        partials[blockIdx.x] = block_data[0];
}
//! [reduce_neighbored]

}  // namespace

void launch_reduce_neighbored(int* data, int* partials, std::size_t n, unsigned block, cudaStream_t stream)
{
    reduce_neighbored<<<course::blocks_for(n, block), block, 0, stream>>>(data, partials, n);
}

}  // namespace lesson03
