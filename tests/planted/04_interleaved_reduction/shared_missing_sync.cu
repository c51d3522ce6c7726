// Planted bug for lesson 04's grader: no __syncthreads() inside the loop: from one step to the next, warps race on shared memory.
// The grader must reject this kernel (tests/planted/04_interleaved_reduction/CMakeLists.txt says with which message).

#include "interleaved_reduction.cuh"

extern "C" __global__ void reduce_shared_interleaved(const int* data, int* partials, std::size_t n)
{
    extern __shared__ int cache[];
    const unsigned tid = threadIdx.x;
    const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + tid;

    cache[tid] = i < n ? data[i] : 0;
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (tid < stride)
            cache[tid] += cache[tid + stride];
    }
    if (tid == 0)
        partials[blockIdx.x] = cache[0];
}
