// plants: nothing wrong: a right two-phase reduction written another way. Blocks of 1024 threads,
//   2 per SM; each block adds one contiguous range of 16-byte vectors (four loads in flight per
//   thread, striding by the block) instead of a grid-stride share; the block and phase 2 (a single
//   warp) add with cooperative groups' reduce. The grader must pass it, speed included.
// replaces: reduce_sum.cu
// passes: *

#include "global_reduction.cuh"

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include <cstdint>

namespace cg = cooperative_groups;

namespace {

constexpr unsigned kBlock = 1024;  // threads per block of phase 1
constexpr unsigned kPhaseTwoBlock = 32;
constexpr unsigned kWarp = 32;
constexpr unsigned kUnroll = 4;
constexpr unsigned kIntsPerVector = 4;

/// The sum over a block of kThreads threads, valid in thread 0.
template <unsigned kThreads>
__device__ long long block_sum(long long value)
{
    const cg::thread_block block = cg::this_thread_block();
    const cg::thread_block_tile<kWarp> warp = cg::tiled_partition<kWarp>(block);
    value = cg::reduce(warp, value, cg::plus<long long>());
    if constexpr (kThreads > kWarp) {
        __shared__ long long warp_sums[kThreads / kWarp];
        if (warp.thread_rank() == 0)
            warp_sums[warp.meta_group_rank()] = value;
        block.sync();
        if (warp.meta_group_rank() == 0) {
            value = warp.thread_rank() < kThreads / kWarp ? warp_sums[warp.thread_rank()] : 0;
            value = cg::reduce(warp, value, cg::plus<long long>());
        }
    }
    return value;
}

__device__ long long add4(int4 v)
{
    return (long long)v.x + v.y + v.z + v.w;  // widened first: four ints near 2^31 overflow an int
}

}  // namespace

// 2048 / 1024 = 2 blocks of phase_one fill an SM; phase 2 is one warp.
extern "C" __constant__ lesson05::ReduceSumLaunch reduce_sum_launch = {
    .phase_one_block = kBlock,
    .max_blocks_per_sm = 2,
    .phase_two_block = kPhaseTwoBlock,
};

extern "C" __global__ void __launch_bounds__(kBlock)
    phase_one(const int* __restrict__ data, std::size_t n, long long* __restrict__ partials)
{
    const unsigned tid = threadIdx.x;
    const auto misalignment = unsigned(reinterpret_cast<std::uintptr_t>(data) / sizeof(int) % kIntsPerVector);
    const std::size_t head_wanted = (kIntsPerVector - misalignment) % kIntsPerVector;
    const std::size_t head = n < head_wanted ? n : head_wanted;
    const std::size_t vector_count = (n - head) / kIntsPerVector;
    const std::size_t body_end = head + vector_count * kIntsPerVector;

    long long sum = 0;
    // The up to 3 ints before the first 16-byte boundary go to block 0, the up to 3 after the
    // last whole vector to the last block.
    if (blockIdx.x == 0 && tid < head)
        sum += data[tid];
    if (blockIdx.x == gridDim.x - 1 && tid < n - body_end)
        sum += data[body_end + tid];

    // Block b's range: `per` vectors from b * per, a multiple of 32 so that every warp's loads
    // start on a 512-byte boundary of the vectors.
    const std::size_t per = ((vector_count + gridDim.x - 1) / gridDim.x + kWarp - 1) / kWarp * kWarp;
    const std::size_t begin = blockIdx.x * per;
    const std::size_t end = begin + per < vector_count ? begin + per : vector_count;
    const auto* vectors = reinterpret_cast<const int4*>(data + head);
    std::size_t i = begin + tid;
    for (; i + (kUnroll - 1) * kBlock < end; i += kUnroll * kBlock) {
        int4 v[kUnroll];
#pragma unroll
        for (unsigned u = 0; u < kUnroll; ++u)
            v[u] = vectors[i + u * kBlock];
#pragma unroll
        for (unsigned u = 0; u < kUnroll; ++u)
            sum += add4(v[u]);
    }
    for (; i < end; i += kBlock)
        sum += add4(vectors[i]);

    sum = block_sum<kBlock>(sum);
    if (tid == 0)
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
