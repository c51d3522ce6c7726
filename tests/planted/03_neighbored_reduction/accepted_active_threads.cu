// plants: nothing wrong: a right lesson 03 kernel that counts its working threads first. At level k
//   only the first ceil(count / 2^(k+1)) threads take part (a shift, not a division), the rest
//   skip the step as whole warps; a thread that takes part adds its partner when the partner
//   exists. Another way to pack the work into the front warps; the grader must pass it, speed
//   included.
// replaces: reduce_neighbored_less.cu
// passes: *

#include "neighbored_reduction.cuh"

extern "C" __global__ void reduce_neighbored_less(int* data, int* partials, std::size_t n)
{
    const unsigned tid = threadIdx.x;
    const std::size_t first = std::size_t(blockIdx.x) * blockDim.x;
    int* block_data = data + first;
    const unsigned count = n - first < blockDim.x ? unsigned(n - first) : blockDim.x;

    for (unsigned level = 0; (1u << level) < blockDim.x; ++level) {
        const unsigned working = (count + (2u << level) - 1) >> (level + 1);
        if (tid < working) {
            const unsigned index = tid << (level + 1);
            if (index + (1u << level) < count)
                block_data[index] += block_data[index + (1u << level)];
        }
        __syncthreads();
    }
    if (tid == 0)
        partials[blockIdx.x] = block_data[0];
}
