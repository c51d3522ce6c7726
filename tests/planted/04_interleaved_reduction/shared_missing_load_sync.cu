// Planted bug for lesson 04's grader: no __syncthreads() between the load into shared memory and the first step: a thread may add a word another warp has not stored yet.
// The grader must reject this kernel (tests/planted/04_interleaved_reduction/CMakeLists.txt says with which message).

#include "interleaved_reduction.cuh"

extern "C" __global__ void reduce_shared_interleaved(const int* data, int* partials, std::size_t n)
{
    extern __shared__ int cache[];
    const unsigned tid = threadIdx.x;
    const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + tid;

    cache[tid] = i < n ? data[i] : 0;
    for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (tid < stride)
            cache[tid] += cache[tid + stride];
        __syncthreads();
    }
    if (tid == 0)
        partials[blockIdx.x] = cache[0];
}
