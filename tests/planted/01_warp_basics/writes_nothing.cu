// Planted bug for lesson 01's grader: the kernel computes the layout but never stores it.
// The grader must reject this kernel (tests/CMakeLists.txt says with which message).

#include "warp_basics.hpp"

namespace lesson01 {
namespace {

__global__ void record_layout(ThreadLayout* out)
{
    const unsigned thread = threadIdx.x + threadIdx.y * blockDim.x + threadIdx.z * blockDim.x * blockDim.y;
    (void)thread;
    (void)out;
}

}  // namespace

void launch_record_layout(dim3 grid, dim3 block, ThreadLayout* out, cudaStream_t stream)
{
    record_layout<<<grid, block, 0, stream>>>(out);
}

}  // namespace lesson01
