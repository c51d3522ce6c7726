// Gaming attempt: lesson 04's global kernel with lesson 03's technique only (the working threads
// packed, the pairs still neighbours), graded beside the student's own lesson 03 left as the slow
// starter. A grader that timed the student's lesson-03 kernel as the "neighbored-less" baseline
// would pass it; lesson 04's baselines are the course's own lesson-03 kernels.
//
// replaces: reduce_interleaved.cu
// expect: ^fail: too slow: reduce_interleaved
// with starters

#include "interleaved_reduction.cuh"

extern "C" __global__ void reduce_interleaved(int* data, int* partials, std::size_t n)
{
    const unsigned tid = threadIdx.x;
    const std::size_t first = std::size_t(blockIdx.x) * blockDim.x;
    int* block_data = data + first;
    const unsigned count = n - first < blockDim.x ? unsigned(n - first) : blockDim.x;
    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
        const unsigned index = 2 * stride * tid;
        if (index + stride < count)
            block_data[index] += block_data[index + stride];
        __syncthreads();
    }
    if (tid == 0)
        partials[blockIdx.x] = block_data[0];
}
