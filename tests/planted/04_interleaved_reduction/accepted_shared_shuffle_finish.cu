// plants: nothing wrong: a right reduce_shared_interleaved that runs the sequential-addressing tree
//   in shared memory only while more than one warp is needed, then lets the first warp finish the
//   last 64 words with warp shuffles instead of five more barrier-separated shared steps. The
//   grader must pass it, speed and bank conflicts included.
// replaces: reduce_shared_interleaved.cu
// passes: *reduce_shared_interleaved*

#include "interleaved_reduction.cuh"

extern "C" __global__ void reduce_shared_interleaved(const int* data, int* partials, std::size_t n)
{
    extern __shared__ int cache[];  // blockDim.x ints
    const unsigned tid = threadIdx.x;
    const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + tid;
    cache[tid] = i < n ? data[i] : 0;
    __syncthreads();

    // Shared steps down to 64 live words; lanes read consecutive words, so no bank conflicts.
    for (unsigned stride = blockDim.x / 2; stride >= 64; stride /= 2) {
        if (tid < stride)
            cache[tid] += cache[tid + stride];
        __syncthreads();
    }
    if (tid < 32) {
        // The first warp holds the live words 0 .. min(64, blockDim.x)-1 between its lanes.
        int sum = cache[tid];
        if (blockDim.x >= 64)
            sum += cache[tid + 32];
        // Registers from here on: no shared memory, no barrier, all 32 lanes take part.
        for (unsigned offset = 16; offset > 0; offset /= 2)
            sum += __shfl_down_sync(0xffffffffu, sum, offset);
        if (tid == 0)
            partials[blockIdx.x] = sum;
    }
}
