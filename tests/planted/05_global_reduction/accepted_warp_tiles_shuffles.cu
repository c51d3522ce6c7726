// plants: nothing wrong: a right two-phase reduction written another way. Blocks of 512 threads, 4
//   per SM; each warp takes whole tiles of 4 x 32 consecutive 16-byte vectors in a grid-stride loop
//   over tiles (four loads in flight per lane), and the block adds with shuffles only: a butterfly
//   in every warp, the warps' sums through shared memory, one more butterfly in warp 0. The grader
//   must pass it, speed included.
// replaces: reduce_sum.cu
// passes: *

#include "global_reduction.cuh"

#include <cstdint>

namespace {

constexpr unsigned kBlock = 512;  // threads per block, both phases
constexpr unsigned kWarp = 32;
constexpr unsigned kUnroll = 4;                     // vectors per lane per tile
constexpr unsigned kTileVectors = kUnroll * kWarp;  // one warp's tile
constexpr unsigned kIntsPerVector = 4;
constexpr unsigned kAllLanes = 0xffffffffu;

/// Every lane ends with the sum of the warp's 32 values (xor butterfly).
__device__ long long warp_sum(long long value)
{
    for (unsigned mask = kWarp / 2; mask > 0; mask /= 2)
        value += __shfl_xor_sync(kAllLanes, value, mask);
    return value;
}

/// The sum over the block, valid in warp 0.
__device__ long long block_sum(long long value)
{
    __shared__ long long warp_sums[kBlock / kWarp];
    value = warp_sum(value);
    if (threadIdx.x % kWarp == 0)
        warp_sums[threadIdx.x / kWarp] = value;
    __syncthreads();
    if (threadIdx.x < kWarp) {
        value = threadIdx.x < kBlock / kWarp ? warp_sums[threadIdx.x] : 0;
        value = warp_sum(value);
    }
    return value;
}

__device__ long long add4(int4 v)
{
    return (long long)v.x + v.y + v.z + v.w;  // widened first: four ints near 2^31 overflow an int
}

}  // namespace

// 2048 / 512 = 4 blocks of phase_one fill an SM: one wave of blocks.
extern "C" __constant__ lesson05::ReduceSumLaunch reduce_sum_launch = {
    .phase_one_block = kBlock,
    .max_blocks_per_sm = 4,
    .phase_two_block = kBlock,
};

extern "C" __global__ void __launch_bounds__(kBlock)
    phase_one(const int* __restrict__ data, std::size_t n, long long* __restrict__ partials)
{
    const std::size_t thread = std::size_t(blockIdx.x) * kBlock + threadIdx.x;
    const unsigned lane = threadIdx.x % kWarp;
    const std::size_t warp = thread / kWarp;
    const std::size_t warps = std::size_t(gridDim.x) * (kBlock / kWarp);

    // The vectors start at the first 16-byte boundary; the up to 3 ints before it (the head) and
    // the up to 3 after the last whole vector (the tail) go to threads 0 to 5, one int each.
    const auto misalignment = unsigned(reinterpret_cast<std::uintptr_t>(data) / sizeof(int) % kIntsPerVector);
    const std::size_t head_wanted = (kIntsPerVector - misalignment) % kIntsPerVector;
    const std::size_t head = n < head_wanted ? n : head_wanted;
    const std::size_t vector_count = (n - head) / kIntsPerVector;
    const std::size_t body_end = head + vector_count * kIntsPerVector;
    long long sum = 0;
    if (thread < head)
        sum += data[thread];
    else if (thread - head < n - body_end)
        sum += data[body_end + (thread - head)];

    const auto* vectors = reinterpret_cast<const int4*>(data + head);
    const std::size_t whole_tiles = vector_count / kTileVectors;
    // Whole tiles: lane l reads vectors l, l + 32, l + 64, l + 96 of its warp's tile, all four
    // loads issued before any add.
    for (std::size_t tile = warp; tile < whole_tiles; tile += warps) {
        const int4* at = vectors + tile * kTileVectors + lane;
        int4 v[kUnroll];
#pragma unroll
        for (unsigned u = 0; u < kUnroll; ++u)
            v[u] = at[u * kWarp];
#pragma unroll
        for (unsigned u = 0; u < kUnroll; ++u)
            sum += add4(v[u]);
    }
    // The last, partial tile (fewer than 128 vectors), spread over the whole grid.
    const std::size_t rest = whole_tiles * kTileVectors + thread;
    if (rest < vector_count)
        sum += add4(vectors[rest]);

    sum = block_sum(sum);
    if (threadIdx.x == 0)
        partials[blockIdx.x] = sum;
}

extern "C" __global__ void __launch_bounds__(kBlock)
    phase_two(const long long* __restrict__ partials, std::size_t count, long long* result)
{
    long long sum = 0;
    for (std::size_t i = threadIdx.x; i < count; i += kBlock)
        sum += partials[i];
    sum = block_sum(sum);
    if (threadIdx.x == 0)
        *result = sum;
}
