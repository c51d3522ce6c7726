// Lesson 03 reference solution: reduceNeighboredLess.
//
//   ./course run 03 --solution

#include "neighbored_reduction.cuh"

//! [reduce_neighbored_less]
extern "C" __global__ void reduce_neighbored_less(int* data, int* partials, std::size_t n)
{
    const unsigned tid = threadIdx.x;
    const std::size_t first = std::size_t(blockIdx.x) * blockDim.x;
    int* block_data = data + first;
    const unsigned count = n - first < blockDim.x ? unsigned(n - first) : blockDim.x;

    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
        // Thread tid adds the pair that starts at 2 * stride * tid: the pairs are the same as
        // reduceNeighbored's, but the threads doing them are 0, 1, 2, ..., so whole warps at the
        // end of the block have nothing to do and skip the branch together.
        const unsigned index = 2 * stride * tid;
        // index + stride < count also implies index < count: a pair whose right half lies past
        // the end of a partial block adds nothing.
        if (index + stride < count)
            block_data[index] += block_data[index + stride];
        __syncthreads();
    }
    if (tid == 0)
        partials[blockIdx.x] = block_data[0];
}
//! [reduce_neighbored_less]
