// Planted bug for lesson 04's grader: right sums, but the neighbored-less indexing in shared memory (bank conflicts): must fail the speed check.
// The grader must reject this kernel (tests/planted/04_interleaved_reduction/CMakeLists.txt says with which message).

#include "interleaved_reduction.cuh"

extern "C" __global__ void reduce_shared_interleaved(const int* data, int* partials, std::size_t n)
{
    extern __shared__ int cache[];
    const unsigned tid = threadIdx.x;
    const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + tid;

    cache[tid] = i < n ? data[i] : 0;
    __syncthreads();
    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
        const unsigned index = 2 * stride * tid;
        if (index < blockDim.x)
            cache[index] += cache[index + stride];
        __syncthreads();
    }
    if (tid == 0)
        partials[blockIdx.x] = cache[0];
}
