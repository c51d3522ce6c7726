// Planted bug for lesson 03's grader: no bound check, as in the seeds: right only when n is a multiple of the block size (the last block adds whatever lies past the end of the array).
// The grader must reject this kernel (tests/planted/CMakeLists.txt says with which message).

#include "neighbored_reduction.cuh"

extern "C" __global__ void reduce_neighbored_less(int* data, int* partials, std::size_t n)
{
    const unsigned tid = threadIdx.x;
    int* block_data = data + std::size_t(blockIdx.x) * blockDim.x;
    (void)n;
    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
        const unsigned index = 2 * stride * tid;
        if (index < blockDim.x)
            block_data[index] += block_data[index + stride];
        __syncthreads();
    }
    if (tid == 0)
        partials[blockIdx.x] = block_data[0];
}

