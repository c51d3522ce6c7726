// Planted bug for lesson 04's grader: no __syncthreads() between the steps: a thread may read a sum another warp has not finished (a race between warps).
// The grader must reject this kernel (tests/planted/04_interleaved_reduction/CMakeLists.txt says with which message).

#include "interleaved_reduction.cuh"

extern "C" __global__ void reduce_interleaved(int* data, int* partials, std::size_t n)
{
    const unsigned tid = threadIdx.x;
    const std::size_t first = std::size_t(blockIdx.x) * blockDim.x;
    int* block_data = data + first;
    const unsigned count = n - first < blockDim.x ? unsigned(n - first) : blockDim.x;

    for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (tid < stride && tid + stride < count)
            block_data[tid] += block_data[tid + stride];
    }
    if (tid == 0)
        partials[blockIdx.x] = block_data[0];
}
