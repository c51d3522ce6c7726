// plants: nothing wrong: a right two-phase reduction written another way. 8-byte int2 loads, eight
//   in flight per thread (64 bytes, as many as four int4s), so only one int may come before the
//   first 8-byte boundary; small blocks of 128 threads, 16 per SM; the block adds with a shared
//   tree that keeps __syncthreads() to the last step, no shuffles. The grader must pass it, speed
//   included.
// replaces: reduce_sum.cu
// passes: *

#include "global_reduction.cuh"

#include <cstdint>

namespace {

constexpr unsigned kBlock = 128;           // threads per block of phase 1
constexpr unsigned kPhaseTwoBlock = 1024;  // phase 2: one large block
constexpr unsigned kUnroll = 8;            // 8-byte loads in flight per thread per loop trip
constexpr unsigned kIntsPerPair = 2;

/// The sum over a block of kThreads threads, valid in thread 0: a shared tree with a barrier after
/// every step.
template <unsigned kThreads>
__device__ long long block_sum(long long value)
{
    __shared__ long long cache[kThreads];
    const unsigned tid = threadIdx.x;
    cache[tid] = value;
    __syncthreads();
#pragma unroll
    for (unsigned stride = kThreads / 2; stride > 0; stride /= 2) {
        if (tid < stride)
            cache[tid] += cache[tid + stride];
        __syncthreads();
    }
    return cache[0];
}

__device__ long long add2(int2 v)
{
    return (long long)v.x + v.y;  // widened first: two ints near 2^31 overflow an int
}

}  // namespace

// 2048 / 128 = 16 blocks of phase_one fill an SM.
extern "C" __constant__ lesson05::ReduceSumLaunch reduce_sum_launch = {
    .phase_one_block = kBlock,
    .max_blocks_per_sm = 16,
    .phase_two_block = kPhaseTwoBlock,
};

extern "C" __global__ void __launch_bounds__(kBlock)
    phase_one(const int* __restrict__ data, std::size_t n, long long* __restrict__ partials)
{
    const std::size_t thread = std::size_t(blockIdx.x) * kBlock + threadIdx.x;
    const std::size_t threads = std::size_t(gridDim.x) * kBlock;

    // An int pointer is 4-byte aligned, so at most one int lies before the first 8-byte boundary,
    // and at most one after the last whole pair.
    const std::size_t head = reinterpret_cast<std::uintptr_t>(data) % (kIntsPerPair * sizeof(int)) == 0 ? 0 : 1;
    const std::size_t pair_count = (n - head) / kIntsPerPair;
    const bool has_tail = head + pair_count * kIntsPerPair < n;
    long long sum = 0;
    if (thread == 0 && head == 1)
        sum += data[0];
    if (thread == threads - 1 && has_tail)
        sum += data[n - 1];

    const auto* pairs = reinterpret_cast<const int2*>(data + head);
    std::size_t i = thread;
    for (; i + (kUnroll - 1) * threads < pair_count; i += kUnroll * threads) {
        int2 v[kUnroll];
#pragma unroll
        for (unsigned u = 0; u < kUnroll; ++u)
            v[u] = pairs[i + u * threads];
#pragma unroll
        for (unsigned u = 0; u < kUnroll; ++u)
            sum += add2(v[u]);
    }
    for (; i < pair_count; i += threads)
        sum += add2(pairs[i]);

    sum = block_sum<kBlock>(sum);
    if (threadIdx.x == 0)
        partials[blockIdx.x] = sum;
}

extern "C" __global__ void __launch_bounds__(kPhaseTwoBlock)
    phase_two(const long long* __restrict__ partials, std::size_t count, long long* result)
{
    long long sum = 0;
    for (std::size_t i = threadIdx.x; i < count; i += kPhaseTwoBlock)
        sum += partials[i];
    sum = block_sum<kPhaseTwoBlock>(sum);
    if (threadIdx.x == 0)
        *result = sum;
}
