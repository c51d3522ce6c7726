// plants: the kernel computes the layout but never stores it.
// replaces: thread_layout.cu
// expect: not written: record_layout, grid \(1, 1, 1\), block \(1, 1, 1\): out\[0\]

#include "warp_basics.cuh"

extern "C" __global__ void record_layout(lesson01::ThreadLayout* out)
{
    const unsigned thread = threadIdx.x + threadIdx.y * blockDim.x + threadIdx.z * blockDim.x * blockDim.y;
    (void)thread;
    (void)out;
}
