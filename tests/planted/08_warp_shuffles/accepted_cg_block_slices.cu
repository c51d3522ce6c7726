// plants: nothing wrong: a right shuffle_sum that gives each block one contiguous slice of the int4
//   vectors (walked with a block-stride loop, four loads in flight) instead of a grid-stride loop,
//   and adds over each warp with cooperative groups (cg::reduce over a thread_block_tile<32>) on the
//   64-bit sums. The grader must pass it, speed and technique included.
// replaces: shuffle_sum.cu
// passes: *

#include "warp_shuffles.cuh"

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include <cstdint>

namespace cg = cooperative_groups;

namespace {

constexpr unsigned kTile = 32;
constexpr unsigned kLoads = 4;

__device__ long long block_reduce(long long value)
{
    __shared__ long long warp_sums[1024 / kTile];
    const cg::thread_block block = cg::this_thread_block();
    const cg::thread_block_tile<kTile> tile = cg::tiled_partition<kTile>(block);

    value = cg::reduce(tile, value, cg::plus<long long>());
    if (tile.thread_rank() == 0)
        warp_sums[tile.meta_group_rank()] = value;
    block.sync();
    if (tile.meta_group_rank() == 0) {
        const unsigned r = tile.thread_rank();
        value = cg::reduce(tile, r < tile.meta_group_size() ? warp_sums[r] : 0LL, cg::plus<long long>());
    }
    return value;
}

}  // namespace

extern "C" __global__ void shuffle_sum(const int* __restrict__ data, std::size_t n, long long* __restrict__ partials)
{
    const unsigned t = threadIdx.x;
    const unsigned step = blockDim.x;
    long long sum = 0;

    // Ints before the first 16-byte boundary (at most 3, at most n): block 0 takes them.
    const std::size_t misalign = reinterpret_cast<std::uintptr_t>(data) % 16 / sizeof(int);
    const std::size_t lead = misalign == 0 ? 0 : (4 - misalign < n ? 4 - misalign : n);
    const std::size_t vectors = (n - lead) / 4;
    const std::size_t trail = n - lead - 4 * vectors;  // 0 to 3 ints after the last whole vector
    if (blockIdx.x == 0 && t < lead)
        sum += data[t];
    if (blockIdx.x == gridDim.x - 1 && t < trail)
        sum += data[lead + 4 * vectors + t];

    // This block's slice [begin, end) of the vectors: equal slices, the last ones possibly short or empty.
    const std::size_t per_block = (vectors + gridDim.x - 1) / gridDim.x;
    const std::size_t begin = std::size_t(blockIdx.x) * per_block;
    const std::size_t end = begin + per_block < vectors ? begin + per_block : vectors;
    const int4* body = reinterpret_cast<const int4*>(data + lead);

    std::size_t i = begin + t;
    for (; i + (kLoads - 1) * step < end; i += kLoads * step) {
        int4 q[kLoads];
#pragma unroll
        for (unsigned k = 0; k < kLoads; ++k)
            q[k] = body[i + k * step];
#pragma unroll
        for (unsigned k = 0; k < kLoads; ++k)
            sum += (long long)q[k].x + q[k].y + q[k].z + q[k].w;
    }
    for (; i < end; i += step) {
        const int4 q = body[i];
        sum += (long long)q.x + q.y + q.z + q.w;
    }

    sum = block_reduce(sum);
    if (t == 0)
        partials[blockIdx.x] = sum;
}
