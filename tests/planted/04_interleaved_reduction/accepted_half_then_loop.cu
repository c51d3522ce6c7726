// plants: nothing wrong: a right reduce_interleaved that folds the block's upper half onto its lower
//   half in a first step of its own, then runs the interleaved loop on the lower half: the same
//   sequential addressing, written as two phases. The grader must pass it, speed included.
// replaces: reduce_interleaved.cu
// passes: *reduce_interleaved*

#include "interleaved_reduction.cuh"

extern "C" __global__ void reduce_interleaved(int* data, int* partials, std::size_t n)
{
    const unsigned tid = threadIdx.x;
    const std::size_t first = std::size_t(blockIdx.x) * blockDim.x;
    int* block_data = data + first;
    const unsigned count = n - first < blockDim.x ? unsigned(n - first) : blockDim.x;
    const unsigned half = blockDim.x / 2;

    if (tid < half && tid + half < count)
        block_data[tid] += block_data[tid + half];
    __syncthreads();
    for (unsigned stride = half / 2; stride > 0; stride >>= 1) {
        if (tid < stride && tid + stride < count)
            block_data[tid] += block_data[tid + stride];
        __syncthreads();
    }
    if (tid == 0)
        partials[blockIdx.x] = block_data[0];
}
