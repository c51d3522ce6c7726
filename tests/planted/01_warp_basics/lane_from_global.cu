// Planted bug for lesson 01's grader: the lane taken from the global id: right only while blocks are multiples of 32 threads (warps never span two blocks).
// The grader must reject this kernel (tests/planted/01_warp_basics/CMakeLists.txt says with which
// message).

#include "warp_basics.cuh"

extern "C" __global__ void record_layout(lesson01::ThreadLayout* out)
{
    const unsigned thread = threadIdx.x + threadIdx.y * blockDim.x + threadIdx.z * blockDim.x * blockDim.y;
    const unsigned block_id = blockIdx.x + blockIdx.y * gridDim.x + blockIdx.z * gridDim.x * gridDim.y;
    const unsigned per_block = blockDim.x * blockDim.y * blockDim.z;
    const unsigned global = block_id * per_block + thread;
    out[global] = {{threadIdx.x, threadIdx.y, threadIdx.z}, {blockIdx.x, blockIdx.y, blockIdx.z},
                   thread, thread / warpSize, global % warpSize, global};
}
