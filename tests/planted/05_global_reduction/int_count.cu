// plants: the element count narrowed to an int. Right up to 2^31 - 1 elements; past that the count
//   is negative and phase 1 adds nothing. The mistake is the whole point, so the kernel is a plain
//   grid-stride loop.
// replaces: reduce_sum.cu
// expect: wrong result: reduce_sum \(zeros, then random values from index 2\^31 - 2\^20 on\), n = 2147549187

#include "global_reduction.cuh"

namespace {

constexpr unsigned kBlock = 256;

/// The sum over the block, valid in thread 0.
__device__ long long block_sum(long long value)
{
    __shared__ long long cache[kBlock];
    cache[threadIdx.x] = value;
    __syncthreads();
    for (unsigned stride = kBlock / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride)
            cache[threadIdx.x] += cache[threadIdx.x + stride];
        __syncthreads();
    }
    return cache[0];
}

}  // namespace

extern "C" __constant__ lesson05::ReduceSumLaunch reduce_sum_launch = {
    .phase_one_block = kBlock,
    .max_blocks_per_sm = 8,
    .phase_two_block = kBlock,
};

extern "C" __global__ void phase_one(const int* data, std::size_t n, long long* partials)
{
    const int count = static_cast<int>(n);  // the mistake
    long long sum = 0;
    for (int i = int(blockIdx.x * kBlock + threadIdx.x); i < count; i += int(gridDim.x * kBlock))
        sum += data[i];
    sum = block_sum(sum);
    if (threadIdx.x == 0)
        partials[blockIdx.x] = sum;
}

extern "C" __global__ void phase_two(const long long* partials, std::size_t count, long long* result)
{
    long long sum = 0;
    for (std::size_t i = threadIdx.x; i < count; i += kBlock)
        sum += partials[i];
    sum = block_sum(sum);
    if (threadIdx.x == 0)
        *result = sum;
}
