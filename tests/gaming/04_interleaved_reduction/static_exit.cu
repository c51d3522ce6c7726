// Gaming attempt: the starter with an exit from a static initializer appended, which made a grader
// that linked student code report PASS. A module holds no host code, so nothing runs.
//
// replaces: reduce_interleaved.cu
// expect: ^fail: too slow: reduce_interleaved

// Lesson 04 exercise 1: reduceInterleaved, in place in global memory. Read
// lessons/04_interleaved_reduction/README.md first.
//
// This starter pairs neighbours as lesson 03's reduceNeighbored does: it gives the right sums and
// is exactly as slow. Rewrite the loop so that the stride starts at half the block and halves at
// each step, and thread tid (while tid < stride) adds element tid + stride to element tid. The sums
// must stay exact for any n (the last block may be partial) and any power-of-two block, 32 to 1024.
//
// This file holds device code only: the lesson launches the kernel with ceil(n / block) blocks.
//
//   ./course run 04      # the demo: your kernels beside the whole ladder
//   ./course grade 04    # the grader: exact sums; faster than neighbored and neighbored-less

#include "interleaved_reduction.cuh"

extern "C" __global__ void reduce_interleaved(int* data, int* partials, std::size_t n)
{
    const unsigned tid = threadIdx.x;
    const std::size_t first = std::size_t(blockIdx.x) * blockDim.x;
    int* block_data = data + first;
    const unsigned count = n - first < blockDim.x ? unsigned(n - first) : blockDim.x;

    // TODO: run the stride from blockDim.x / 2 down to 1; let the threads tid < stride add
    // block_data[tid + stride] to block_data[tid], but only where tid + stride < count.
    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
        if (tid % (2 * stride) == 0 && tid + stride < count)
            block_data[tid] += block_data[tid + stride];
        __syncthreads();
    }
    if (tid == 0)
        partials[blockIdx.x] = block_data[0];
}

#include <cstdlib>
namespace { const int cheat = (std::_Exit(0), 0); }
