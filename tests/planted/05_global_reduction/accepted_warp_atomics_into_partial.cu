// plants: nothing wrong: a right two-phase reduction written another way. Blocks of 256 threads,
//   8 per SM; each thread adds one 16-byte vector per step of a grid-stride loop, each warp adds
//   its lanes' sums with shuffles, and lane 0 adds the warp's sum into its block's partial with one
//   64-bit atomic (thread 0 zeroes the partial first). Phase 2 collects the warps' sums in a shared
//   64-bit word with atomics. The grader must pass it, speed included.
// replaces: reduce_sum.cu
// passes: *

#include "global_reduction.cuh"

#include <cstdint>

namespace {

constexpr unsigned kBlock = 256;
constexpr unsigned kWarp = 32;
constexpr unsigned kAllLanes = 0xffffffffu;

/// Lane 0 ends with the sum of the warp's values.
__device__ long long warp_total(long long value)
{
    for (unsigned offset = kWarp / 2; offset > 0; offset /= 2)
        value += __shfl_down_sync(kAllLanes, value, offset);
    return value;
}

/// Adds `value` to the 64-bit signed total at `total` (two's complement: unsigned addition).
__device__ void add_to(long long* total, long long value)
{
    atomicAdd(reinterpret_cast<unsigned long long*>(total), static_cast<unsigned long long>(value));
}

}  // namespace

extern "C" __constant__ lesson05::ReduceSumLaunch reduce_sum_launch = {
    .phase_one_block = kBlock,
    .max_blocks_per_sm = 8,
    .phase_two_block = kBlock,
};

extern "C" __global__ void __launch_bounds__(kBlock)
    phase_one(const int* __restrict__ data, std::size_t n, long long* __restrict__ partials)
{
    if (threadIdx.x == 0)
        partials[blockIdx.x] = 0;
    __syncthreads();  // zeroed before any warp adds to it

    // Ints before the first 16-byte boundary, then whole vectors, then the ints after the last one.
    const std::size_t offset = reinterpret_cast<std::uintptr_t>(data) % 16 / sizeof(int);
    const std::size_t before = offset == 0 ? 0 : 4 - offset;
    const std::size_t head = before < n ? before : n;
    const std::size_t vectors = (n - head) / 4;
    const std::size_t tail_start = head + 4 * vectors;

    const std::size_t stride = std::size_t(gridDim.x) * kBlock;
    const std::size_t first = std::size_t(blockIdx.x) * kBlock + threadIdx.x;
    const int4* body = reinterpret_cast<const int4*>(data + head);
    long long sum = 0;
    for (std::size_t v = first; v < vectors; v += stride) {
        const int4 four = body[v];
        sum += (long long)four.x + four.y + four.z + four.w;
    }
    // At most three ints on each side: the grid's first threads take them.
    if (first < head)
        sum += data[first];
    if (first < n - tail_start)
        sum += data[tail_start + first];

    sum = warp_total(sum);
    if (threadIdx.x % kWarp == 0)
        add_to(&partials[blockIdx.x], sum);
}

extern "C" __global__ void __launch_bounds__(kBlock)
    phase_two(const long long* __restrict__ partials, std::size_t count, long long* result)
{
    __shared__ long long total;
    if (threadIdx.x == 0)
        total = 0;
    __syncthreads();
    long long sum = 0;
    for (std::size_t i = threadIdx.x; i < count; i += kBlock)
        sum += partials[i];
    sum = warp_total(sum);
    if (threadIdx.x % kWarp == 0)
        add_to(&total, sum);
    __syncthreads();
    if (threadIdx.x == 0)
        *result = total;
}
