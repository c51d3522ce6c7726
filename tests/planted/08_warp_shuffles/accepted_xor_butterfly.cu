// plants: nothing wrong: a right shuffle_sum whose warps add with __shfl_xor_sync butterflies on the
//   64-bit sums (every lane ends with the warp's total), whose head is found by rounding the pointer
//   up to the next 16-byte boundary, and whose tail elements go to the last threads of the grid
//   rather than the first. The grader must pass it, speed and technique included.
// replaces: shuffle_sum.cu
// passes: *

#include "warp_shuffles.cuh"

#include <cstdint>

namespace {

constexpr unsigned kWarpSize = 32;
constexpr unsigned kFullMask = 0xffffffffu;
constexpr unsigned kLanesPerSlot = kWarpSize;
constexpr unsigned kInFlight = 4;  // int4 loads per thread per trip

/// Butterfly: after the offsets 1, 2, 4, 8, 16 every lane holds the sum of all 32 lanes.
__device__ long long warp_total(long long value)
{
    for (unsigned offset = 1; offset < kWarpSize; offset <<= 1)
        value += __shfl_xor_sync(kFullMask, value, offset);
    return value;
}

__device__ long long block_total(long long value)
{
    __shared__ long long per_warp[1024 / kLanesPerSlot];
    const unsigned lane = threadIdx.x % kWarpSize;
    const unsigned warp = threadIdx.x / kWarpSize;
    const unsigned warps = blockDim.x / kWarpSize;

    value = warp_total(value);
    if (lane == 0)
        per_warp[warp] = value;
    __syncthreads();  // all warps' totals are in place
    if (warp == 0)
        value = warp_total(lane < warps ? per_warp[lane] : 0);  // all 32 lanes take part
    return value;
}

__device__ long long widened_sum(const int4& v)
{
    return (long long)v.x + (long long)v.y + (long long)v.z + (long long)v.w;
}

}  // namespace

extern "C" __global__ void shuffle_sum(const int* __restrict__ data, std::size_t n, long long* __restrict__ partials)
{
    const std::size_t threads = std::size_t(gridDim.x) * blockDim.x;
    const std::size_t me = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    long long sum = 0;

    // The first 16-byte aligned address at or after data; the ints before it form the head.
    const auto start = reinterpret_cast<std::uintptr_t>(data);
    const std::uintptr_t aligned = (start + 15) & ~std::uintptr_t{15};
    std::size_t head = (aligned - start) / sizeof(int);
    if (head > n)
        head = n;
    const auto* body = reinterpret_cast<const int4*>(data + head);
    const std::size_t vectors = (n - head) / 4;
    const std::size_t tail_start = head + 4 * vectors;

    if (me < head)
        sum += data[me];
    // The tail (0 to 3 ints) goes to the grid's last threads, counted back from the end.
    const std::size_t from_end = threads - 1 - me;
    if (from_end < n - tail_start)
        sum += data[tail_start + from_end];

    // Grid-stride over the vectors, kInFlight independent loads issued before any is added.
    std::size_t v = me;
    while (v + (kInFlight - 1) * threads < vectors) {
        int4 loaded[kInFlight];
#pragma unroll
        for (unsigned k = 0; k < kInFlight; ++k)
            loaded[k] = body[v + k * threads];
#pragma unroll
        for (unsigned k = 0; k < kInFlight; ++k)
            sum += widened_sum(loaded[k]);
        v += kInFlight * threads;
    }
    while (v < vectors) {
        sum += widened_sum(body[v]);
        v += threads;
    }

    sum = block_total(sum);
    if (threadIdx.x == 0)
        partials[blockIdx.x] = sum;
}
