// Planted bug for lesson 01's grader: the kernel computes the layout but never stores it.
// The grader must reject this kernel (tests/planted/01_warp_basics/CMakeLists.txt says with which
// message).

#include "warp_basics.cuh"

extern "C" __global__ void record_layout(lesson01::ThreadLayout* out)
{
    const unsigned thread = threadIdx.x + threadIdx.y * blockDim.x + threadIdx.z * blockDim.x * blockDim.y;
    (void)thread;
    (void)out;
}
