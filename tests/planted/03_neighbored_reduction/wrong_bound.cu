// Planted bug for lesson 03's grader: the loop stops one step early (stride < blockDim.x / 2), so each block's two halves are never added.
// The grader must reject this kernel (tests/planted/CMakeLists.txt says with which message).

#include "neighbored_reduction.cuh"

extern "C" __global__ void reduce_neighbored_less(int* data, int* partials, std::size_t n)
{
    const unsigned tid = threadIdx.x;
    const std::size_t first = std::size_t(blockIdx.x) * blockDim.x;
    int* block_data = data + first;
    const unsigned count = n - first < blockDim.x ? unsigned(n - first) : blockDim.x;

    for (unsigned stride = 1; stride < blockDim.x / 2; stride *= 2) {
        const unsigned index = 2 * stride * tid;
        if (index + stride < count)
            block_data[index] += block_data[index + stride];
        __syncthreads();
    }
    if (tid == 0)
        partials[blockIdx.x] = block_data[0];
}

