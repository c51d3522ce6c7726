// plants: a right kernel whose working threads are packed at the front, as the lesson asks, but
//   which works out how many of them there are with an integer division at every step, in every
//   thread of every warp: that division costs the idle warps what the packing saved them. It is
//   no faster than reduce_neighbored on a GPU (0.99x on an H200) and on the simulator's counters
//   (1.15x issue slots per warp), and both back ends must say so.
// replaces: reduce_neighbored_less.cu
// expect: too slow: reduce_neighbored_less

#include "neighbored_reduction.cuh"

extern "C" __global__ void reduce_neighbored_less(int* data, int* partials, std::size_t n)
{
    const unsigned tid = threadIdx.x;
    const std::size_t first = std::size_t(blockIdx.x) * blockDim.x;
    int* block_data = data + first;
    const unsigned count = n - first < blockDim.x ? unsigned(n - first) : blockDim.x;

    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
        const unsigned working = (count + 2 * stride - 1) / (2 * stride);
        if (tid < working) {
            const unsigned index = 2 * stride * tid;
            if (index + stride < count)
                block_data[index] += block_data[index + stride];
        }
        __syncthreads();
    }
    if (tid == 0)
        partials[blockIdx.x] = block_data[0];
}
