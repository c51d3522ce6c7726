// Planted bug for lesson 04's grader: no bound check on the partial last block (tid < stride only): it adds elements that lie past the end of the array.
// The grader must reject this kernel (tests/planted/04_interleaved_reduction/CMakeLists.txt says with which message).

#include "interleaved_reduction.cuh"

extern "C" __global__ void reduce_interleaved(int* data, int* partials, std::size_t n)
{
    const unsigned tid = threadIdx.x;
    int* block_data = data + std::size_t(blockIdx.x) * blockDim.x;
    (void)n;
    for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (tid < stride)
            block_data[tid] += block_data[tid + stride];
        __syncthreads();
    }
    if (tid == 0)
        partials[blockIdx.x] = block_data[0];
}
