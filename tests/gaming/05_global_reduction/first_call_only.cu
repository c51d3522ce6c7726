// Gaming attempt: phase 2 writes the sum on its first launch only and leaves the result alone
// afterwards, so that every later call costs one phase and returns the first call's answer. The
// grader checks every call's result against a fresh input, with the result poisoned first.
//
// replaces: reduce_sum.cu
// expect: ^fail: (wrong result|not written): reduce_sum

#include "global_reduction.cuh"

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
__device__ unsigned long long g_phase_two_launches = 0;

extern "C" __global__ void phase_two(const long long* partials, std::size_t count, long long* result)
{
    // Right the first time; afterwards the result of the first call is left where it is.
    __shared__ bool first;
    if (threadIdx.x == 0)
        first = atomicAdd(&g_phase_two_launches, 1ull) == 0;
    __syncthreads();
    if (!first)
        return;
    long long sum = 0;
    for (std::size_t i = threadIdx.x; i < count; i += kBlock)
        sum += partials[i];
    sum = block_sum(sum);
    if (threadIdx.x == 0)
        *result = sum;
}
