// Lesson 01 reference solution, exercise 1: the position of every thread of a 3-D grid of 3-D
// blocks, as the hardware sees it.
//
//   ./course run 01 --solution

#include "warp_basics.cuh"

//! [record_layout]
extern "C" __global__ void record_layout(lesson01::ThreadLayout* out)
{
    // x varies fastest, then y, then z. Warps are cut from this linear id: threads 0..31 form
    // warp 0 whatever the block's shape, and a block of 33 threads has a second warp with one
    // active lane.
    const unsigned thread = threadIdx.x + threadIdx.y * blockDim.x + threadIdx.z * blockDim.x * blockDim.y;
    // Blocks are numbered the same way within the grid (the order says nothing about when a
    // block runs; it only names it).
    const unsigned block_id = blockIdx.x + blockIdx.y * gridDim.x + blockIdx.z * gridDim.x * gridDim.y;
    const unsigned per_block = blockDim.x * blockDim.y * blockDim.z;

    const unsigned global = block_id * per_block + thread;
    // warpSize is 32 on every GPU so far; the built-in keeps the intent visible.
    out[global] = {{threadIdx.x, threadIdx.y, threadIdx.z},
                   {blockIdx.x, blockIdx.y, blockIdx.z},
                   thread,
                   thread / warpSize,
                   thread % warpSize,
                   global};
}
//! [record_layout]
