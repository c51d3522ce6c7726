// plants: nothing wrong: a right reduce_unrolled that reads its 8 data blocks as 16-byte int4
//   vectors, two per thread (the same 32 bytes in flight per thread in two loads instead of
//   eight), and adds the block with cooperative groups' reduce in each warp and then in warp 0. A
//   partial last block, or data not 16-byte aligned, takes 4-byte loads. The grader must pass it,
//   speed included.
// replaces: reduce_unrolled.cu
// passes: *

#include "unrolling.cuh"

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include <cstdint>

namespace cg = cooperative_groups;

constexpr unsigned kDataBlocks = 8;
extern "C" __constant__ unsigned reduce_unrolled_data_blocks = kDataBlocks;

namespace {

constexpr unsigned kWarp = 32;
constexpr unsigned kIntsPerVector = 4;
constexpr unsigned kVectorsPerThread = kDataBlocks / kIntsPerVector;

__device__ int add4(int4 v)
{
    return v.x + v.y + v.z + v.w;
}

/// This thread's share of its block's kDataBlocks x kBlock elements, added.
template <unsigned kBlock>
__device__ int add_share(const int* data, std::size_t n)
{
    const std::size_t start = std::size_t(blockIdx.x) * kDataBlocks * kBlock;
    const bool whole = start + kDataBlocks * kBlock <= n;
    const bool aligned = reinterpret_cast<std::uintptr_t>(data) % (kIntsPerVector * sizeof(int)) == 0;
    if (whole && aligned) {
        // The block's 2 x kBlock vectors: thread t takes t and t + kBlock, so a warp's loads are
        // 512 contiguous bytes each. Both are issued before either is added.
        const auto* vectors = reinterpret_cast<const int4*>(data + start) + threadIdx.x;
        int4 v[kVectorsPerThread];
#pragma unroll
        for (unsigned k = 0; k < kVectorsPerThread; ++k)
            v[k] = vectors[k * kBlock];
        int sum = 0;
#pragma unroll
        for (unsigned k = 0; k < kVectorsPerThread; ++k)
            sum += add4(v[k]);
        return sum;
    }
    // The last block (or misaligned data): one int from each data block, zeros past the end.
    int sum = 0;
#pragma unroll
    for (unsigned k = 0; k < kDataBlocks; ++k) {
        const std::size_t i = start + k * kBlock + threadIdx.x;
        sum += i < n ? data[i] : 0;
    }
    return sum;
}

template <unsigned kBlock>
__device__ void reduce_unrolled(const int* data, int* partials, std::size_t n)
{
    const cg::thread_block block = cg::this_thread_block();
    const cg::thread_block_tile<kWarp> warp = cg::tiled_partition<kWarp>(block);
    int sum = cg::reduce(warp, add_share<kBlock>(data, n), cg::plus<int>());
    if constexpr (kBlock > kWarp) {
        __shared__ int warp_sums[kBlock / kWarp];  // the lesson's dynamic shared memory stays unused
        if (warp.thread_rank() == 0)
            warp_sums[warp.meta_group_rank()] = sum;
        block.sync();
        if (warp.meta_group_rank() == 0) {
            sum = warp.thread_rank() < kBlock / kWarp ? warp_sums[warp.thread_rank()] : 0;
            sum = cg::reduce(warp, sum, cg::plus<int>());
        }
    }
    if (block.thread_rank() == 0)
        partials[blockIdx.x] = sum;
}

}  // namespace

extern "C" __global__ void __launch_bounds__(32) reduce_unrolled_32(const int* data, int* partials, std::size_t n)
{
    reduce_unrolled<32>(data, partials, n);
}
extern "C" __global__ void __launch_bounds__(64) reduce_unrolled_64(const int* data, int* partials, std::size_t n)
{
    reduce_unrolled<64>(data, partials, n);
}
extern "C" __global__ void __launch_bounds__(128) reduce_unrolled_128(const int* data, int* partials, std::size_t n)
{
    reduce_unrolled<128>(data, partials, n);
}
extern "C" __global__ void __launch_bounds__(256) reduce_unrolled_256(const int* data, int* partials, std::size_t n)
{
    reduce_unrolled<256>(data, partials, n);
}
extern "C" __global__ void __launch_bounds__(512) reduce_unrolled_512(const int* data, int* partials, std::size_t n)
{
    reduce_unrolled<512>(data, partials, n);
}
extern "C" __global__ void __launch_bounds__(1024) reduce_unrolled_1024(const int* data, int* partials, std::size_t n)
{
    reduce_unrolled<1024>(data, partials, n);
}
