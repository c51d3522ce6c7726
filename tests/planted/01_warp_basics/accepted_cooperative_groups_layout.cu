// plants: nothing wrong: a right record_layout that asks cooperative groups for the linear ids
//   instead of computing them: the block's thread_rank, the grid's block_rank, and a 32-thread
//   tiled_partition's meta_group_rank and thread_rank for the warp and the lane. The grader must
//   pass it.
// replaces: thread_layout.cu
// passes: *

#include "warp_basics.cuh"

#include <cooperative_groups.h>

namespace cg = cooperative_groups;

extern "C" __global__ void record_layout(lesson01::ThreadLayout* out)
{
    const cg::thread_block block = cg::this_thread_block();
    // The tiles of 32 follow the block's linear thread order (x fastest), as the hardware's warps
    // do; a partial last warp is a partial last tile.
    const cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    const unsigned thread = block.thread_rank();
    const unsigned block_id = cg::this_grid().block_rank();  // x fastest, then y, then z
    const unsigned global = block_id * block.size() + thread;
    out[global] = {{threadIdx.x, threadIdx.y, threadIdx.z},
                   {blockIdx.x, blockIdx.y, blockIdx.z},
                   thread,
                   warp.meta_group_rank(),
                   warp.thread_rank(),
                   global};
}
