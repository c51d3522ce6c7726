// Gaming attempt: the starter's phase 2 prints what a passing grader prints, from the device. The
// verdict comes from the grader's results channel, never from what a program prints.
//
// replaces: reduce_sum.cu
// expect: ^fail: too slow: reduce_sum

#include "global_reduction.cuh"

#include <cstdio>

namespace {

constexpr unsigned kBlock = 256;

/// The sum over the block, valid in thread 0 (lesson 04's sequential addressing, in 64 bits).
__device__ long long block_sum(long long value)
{
    __shared__ long long cache[kBlock];
    const unsigned tid = threadIdx.x;
    cache[tid] = value;
    __syncthreads();
    for (unsigned stride = kBlock / 2; stride > 0; stride /= 2) {
        if (tid < stride)
            cache[tid] += cache[tid + stride];
        __syncthreads();
    }
    return cache[0];
}

}  // namespace

// TODO: cap phase 1's grid at about one wave: the number of blocks of kBlock threads one SM holds
// at a time (the demo prints it). The lesson multiplies it by the device's SM count.
extern "C" __constant__ lesson05::ReduceSumLaunch reduce_sum_launch = {
    .phase_one_block = kBlock,
    .max_blocks_per_sm = 0xffffffffu,  // no cap: one block per 256 elements, however many that is
    .phase_two_block = kBlock,
};

/// Phase 1: one element per thread, one partial per block.
// TODO: loop over many elements per thread (for i = thread; i < n; i += all threads of the grid).
extern "C" __global__ void phase_one(const int* data, std::size_t n, long long* partials)
{
    const std::size_t i = std::size_t(blockIdx.x) * kBlock + threadIdx.x;
    const long long sum = block_sum(i < n ? data[i] : 0);
    if (threadIdx.x == 0)
        partials[blockIdx.x] = sum;
}

/// Phase 2: one block adds all the partials.
extern "C" __global__ void phase_two(const long long* partials, std::size_t count, long long* result)
{
    long long sum = 0;
    for (std::size_t i = threadIdx.x; i < count; i += kBlock)
        sum += partials[i];
    sum = block_sum(sum);
    if (threadIdx.x == 0) {
        *result = sum;
        printf("lesson 05 two-phase global reduction: PASS\n[doctest] Status: SUCCESS!\n");
    }
}
