// Planted bug for lesson 04's grader: right sums, but lesson 03's neighbored-less indexing (index = 2 * stride * tid) instead of interleaved pairs: it must fail the speed check against neighbored-less.
// The grader must reject this kernel (tests/planted/04_interleaved_reduction/CMakeLists.txt says with which message).

#include "interleaved_reduction.cuh"

extern "C" __global__ void reduce_interleaved(int* data, int* partials, std::size_t n)
{
    const unsigned tid = threadIdx.x;
    const std::size_t first = std::size_t(blockIdx.x) * blockDim.x;
    int* block_data = data + first;
    const unsigned count = n - first < blockDim.x ? unsigned(n - first) : blockDim.x;

    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
        const unsigned index = 2 * stride * tid;
        if (index + stride < count)
            block_data[index] += block_data[index + stride];
        __syncthreads();
    }
    if (tid == 0)
        partials[blockIdx.x] = block_data[0];
}
