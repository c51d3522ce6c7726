// plants: nothing wrong: a right lesson 03 kernel that keeps each working thread's running sum in a
//   register and writes it back once per step, reading only its partner from memory. The same pairs
//   and the same packed threads as the reference; the grader must pass it, speed included.
// replaces: reduce_neighbored_less.cu
// passes: *

#include "neighbored_reduction.cuh"

extern "C" __global__ void reduce_neighbored_less(int* data, int* partials, std::size_t n)
{
    const unsigned tid = threadIdx.x;
    const std::size_t first = std::size_t(blockIdx.x) * blockDim.x;
    int* block_data = data + first;
    const unsigned count = n - first < blockDim.x ? unsigned(n - first) : blockDim.x;

    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
        const unsigned index = 2 * stride * tid;
        int sum = 0;
        const bool adds = index + stride < count;
        if (adds)
            sum = block_data[index] + block_data[index + stride];
        __syncthreads();  // every read of this step before any write
        if (adds)
            block_data[index] = sum;
        __syncthreads();
    }
    if (tid == 0)
        partials[blockIdx.x] = block_data[0];
}
