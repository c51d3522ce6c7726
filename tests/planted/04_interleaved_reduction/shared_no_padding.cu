// Planted bug for lesson 04's grader: threads past the end of the array store nothing, so the tree adds whatever shared memory held before.
// The grader must reject this kernel (tests/planted/04_interleaved_reduction/CMakeLists.txt says with which message).

#include "interleaved_reduction.cuh"

extern "C" __global__ void reduce_shared_interleaved(const int* data, int* partials, std::size_t n)
{
    extern __shared__ int cache[];
    const unsigned tid = threadIdx.x;
    const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + tid;

    if (i < n)
        cache[tid] = data[i];
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (tid < stride)
            cache[tid] += cache[tid + stride];
        __syncthreads();
    }
    if (tid == 0)
        partials[blockIdx.x] = cache[0];
}
