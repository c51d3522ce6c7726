// Lesson 03 exercise: reduceNeighboredLess. Read lessons/03_neighbored_reduction/README.md first.
//
// This starter is reduceNeighbored under a new name: it gives the right sums, and is exactly as
// slow. Change which threads do the adding so that the working threads are tid = 0, 1, 2, ...
// (whole warps, packed at the front of the block) instead of every (2*stride)-th thread, keeping
// the sums exactly the same, for any n and any power-of-two block from 32 to 1024.
//
// This file holds device code only: the lesson launches the kernel with ceil(n / block) blocks.
//
//   ./course run 03      # the demo: your kernel beside reduceNeighbored
//   ./course grade 03    # the grader: exact sums, and the speedup the README's lesson table names

#include "neighbored_reduction.cuh"

extern "C" __global__ void reduce_neighbored_less(int* data, int* partials, std::size_t n)
{
    const unsigned tid = threadIdx.x;
    const std::size_t first = std::size_t(blockIdx.x) * blockDim.x;
    int* block_data = data + first;
    const unsigned count = n - first < blockDim.x ? unsigned(n - first) : blockDim.x;

    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
        // TODO: let thread tid add the pair that starts at an index computed from tid and
        // stride, instead of testing tid % (2 * stride). Keep a bound check so that a pair whose
        // second element lies past `count` (the last, partial block) is not added.
        if (tid % (2 * stride) == 0 && tid + stride < count)
            block_data[tid] += block_data[tid + stride];
        __syncthreads();
    }
    if (tid == 0)
        partials[blockIdx.x] = block_data[0];
}
