// Lesson 01, exercise 1: where does each thread of a 3-D grid of 3-D blocks sit? Read
// lessons/01_warp_basics/README.md first.
//
// This starter is right for 1-D grids of 1-D blocks only: it ignores threadIdx.y/z, blockIdx.y/z
// and the y and z sizes. Make it right for every shape: x varies fastest, then y, then z, for
// threads in a block and for blocks in the grid alike; warps are cut from the block's linear ids.
//
// This file holds device code only: the lesson launches the kernel on grids and blocks of many
// shapes (warp_basics.cuh declares it).
//
//   ./course run 01      # the demo prints the layout your kernel records for a small 3-D block
//   ./course grade 01    # the grader: exact layouts over many shapes, then exercise 2

#include "warp_basics.cuh"

extern "C" __global__ void record_layout(lesson01::ThreadLayout* out)
{
    // TODO: linearise the 3-D threadIdx within the 3-D blockDim (x fastest, then y, then z).
    const unsigned thread = threadIdx.x;
    // TODO: linearise the 3-D blockIdx within the 3-D gridDim the same way.
    const unsigned block_id = blockIdx.x;
    // TODO: threads per block is the product of all three block dimensions.
    const unsigned per_block = blockDim.x;

    const unsigned global = block_id * per_block + thread;
    out[global] = {{threadIdx.x, threadIdx.y, threadIdx.z},
                   {blockIdx.x, blockIdx.y, blockIdx.z},
                   thread,
                   thread / warpSize,
                   thread % warpSize,
                   global};
}
