// plants: nothing wrong: a right lesson 03 kernel written with shifts instead of multiplications.
//   Level k pairs element tid << (k + 1) with the one 1 << k after it; the pairs and the working
//   threads are the reference's, the arithmetic is not. The grader must pass it, speed included.
// replaces: reduce_neighbored_less.cu
// passes: *

#include "neighbored_reduction.cuh"

extern "C" __global__ void reduce_neighbored_less(int* data, int* partials, std::size_t n)
{
    const unsigned tid = threadIdx.x;
    int* block_data = data + std::size_t(blockIdx.x) * blockDim.x;
    const std::size_t left = n - std::size_t(blockIdx.x) * blockDim.x;
    const unsigned count = left < blockDim.x ? unsigned(left) : blockDim.x;

    for (unsigned level = 0; (1u << level) < blockDim.x; ++level) {
        const unsigned index = tid << (level + 1);
        const unsigned partner = index + (1u << level);
        if (partner < count)
            block_data[index] += block_data[partner];
        __syncthreads();
    }
    if (tid == 0)
        partials[blockIdx.x] = block_data[0];
}
