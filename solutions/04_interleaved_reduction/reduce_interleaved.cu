// Lesson 04 reference solution: reduceInterleaved, in place in global memory.
//
//   ./course run 04 --solution --kernel interleaved

#include "interleaved_reduction.cuh"

//! [reduce_interleaved]
extern "C" __global__ void reduce_interleaved(int* data, int* partials, std::size_t n)
{
    const unsigned tid = threadIdx.x;
    const std::size_t first = std::size_t(blockIdx.x) * blockDim.x;
    int* block_data = data + first;
    const unsigned count = n - first < blockDim.x ? unsigned(n - first) : blockDim.x;

    for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
        // The adding threads are 0 .. stride-1, so whole warps work or whole warps idle; and lane l
        // of a warp touches words tid and tid + stride, both consecutive across the warp: each
        // access of a warp is one contiguous 128-byte piece of memory (coalesced).
        // tid + stride < count: in a partial last block, an element past the end is never read;
        // every element below count still reaches element 0 (it lands on tid = its index mod stride).
        if (tid < stride && tid + stride < count)
            block_data[tid] += block_data[tid + stride];
        __syncthreads();
    }
    if (tid == 0)
        partials[blockIdx.x] = block_data[0];
}
//! [reduce_interleaved]
