// Planted bug for lesson 04's grader: a kernel that faults (a write through a null pointer) when n
// is odd. The grader must name the case that faulted, not only the line of its own code that saw it.

#include "interleaved_reduction.cuh"

extern "C" __global__ void reduce_interleaved(int* data, int* partials, std::size_t n)
{
    const unsigned tid = threadIdx.x;
    if (n % 2 == 1 && tid == 0)
        *static_cast<volatile int*>(nullptr) = 1;
    int* block_data = data + std::size_t(blockIdx.x) * blockDim.x;
    for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (tid < stride && std::size_t(blockIdx.x) * blockDim.x + tid + stride < n)
            block_data[tid] += block_data[tid + stride];
        __syncthreads();
    }
    if (tid == 0)
        partials[blockIdx.x] = block_data[0];
}
