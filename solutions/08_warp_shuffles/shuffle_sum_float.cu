// Lesson 08 reference solution, floats: the block's sum with cooperative groups (a
// thread_block_tile<32> and cg::reduce), the array read in float4 vectors from any float pointer.
//
//   ./course run 08 --solution --kernel shuffle_sum_float

#include "warp_shuffles.cuh"

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include <cstdint>

namespace cg = cooperative_groups;

namespace {

constexpr unsigned kWarpSize = 32;
constexpr unsigned kMaxWarps = 1024 / kWarpSize;
constexpr unsigned kPerVector = 4;  // floats in a float4
constexpr unsigned kUnroll = 4;

//! [block_sum_float]
/// The sum of `value` over the block, in thread 0. The block is cut into tiles of 32 threads (its
/// warps); cg::reduce adds over a tile and gives every thread of the tile the result (shuffles
/// underneath, as many as __shfl_xor_sync would need).
__device__ float block_sum(float value)
{
    __shared__ float slots[kMaxWarps];
    const cg::thread_block block = cg::this_thread_block();
    const cg::thread_block_tile<kWarpSize> warp = cg::tiled_partition<kWarpSize>(block);

    value = cg::reduce(warp, value, cg::plus<float>());
    if (warp.thread_rank() == 0)
        slots[warp.meta_group_rank()] = value;
    block.sync();  // __syncthreads()
    if (warp.meta_group_rank() == 0) {
        value = warp.thread_rank() < warp.meta_group_size() ? slots[warp.thread_rank()] : 0.0f;
        value = cg::reduce(warp, value, cg::plus<float>());
    }
    return value;
}
//! [block_sum_float]

/// The vector's four elements: two independent additions, then one.
__device__ float add4(float4 v)
{
    return (v.x + v.y) + (v.z + v.w);
}

}  // namespace

extern "C" __global__ void shuffle_sum_float(const float* __restrict__ data, std::size_t n,
                                             float* __restrict__ partials)
{
    const std::size_t thread = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    const std::size_t threads = std::size_t(gridDim.x) * blockDim.x;
    float sum = 0.0f;

    // Head, body, tail, as in shuffle_sum.cu: float4 loads need a 16-byte aligned address.
    const auto address = reinterpret_cast<std::uintptr_t>(data);
    const std::size_t to_boundary = (sizeof(float4) - address % sizeof(float4)) % sizeof(float4) / sizeof(float);
    const std::size_t head = to_boundary < n ? to_boundary : n;
    if (thread < head)
        sum += data[thread];

    const auto* vectors = reinterpret_cast<const float4*>(data + head);
    const std::size_t vector_count = (n - head) / kPerVector;
    std::size_t i = thread;
    for (; i + (kUnroll - 1) * threads < vector_count; i += kUnroll * threads) {
        float4 v[kUnroll];
#pragma unroll
        for (unsigned u = 0; u < kUnroll; ++u)
            v[u] = vectors[i + u * threads];
#pragma unroll
        for (unsigned u = 0; u < kUnroll; ++u)
            sum += add4(v[u]);
    }
    for (; i < vector_count; i += threads)
        sum += add4(vectors[i]);

    const std::size_t tail = head + vector_count * kPerVector + thread;
    if (tail < n)
        sum += data[tail];

    sum = block_sum(sum);
    if (threadIdx.x == 0)
        partials[blockIdx.x] = sum;
}
