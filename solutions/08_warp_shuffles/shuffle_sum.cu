// Lesson 08 reference solution: the block's sum with warp shuffles and one shared-memory slot per
// warp, the array read in 16-byte vectors from any int pointer, for any n, any grid and any
// multiple of 32 as block size.
//
//   ./course run 08 --solution
//   ./course grade 08    (against exercises/; the course's tests grade this file)

#include "warp_shuffles.cuh"

#include <cstdint>

namespace {

constexpr unsigned kWarpSize = 32;
constexpr unsigned kFullMask = 0xffffffffu;  // every lane of the warp takes part in each exchange
constexpr unsigned kMaxWarps = 1024 / kWarpSize;
constexpr unsigned kPerVector = 4;  // ints in an int4
constexpr unsigned kUnroll = 4;     // 16-byte loads each thread has in flight per loop trip

//! [warp_sum]
/// The sum of `value` over the warp, in lane 0. At each step lane i adds the value of lane
/// i + offset: after offset 16, lanes 0..15 hold pairs; after 8, lanes 0..7 hold fours; ...; after
/// 1, lane 0 holds all 32. Registers only: no shared memory, no barrier.
__device__ long long warp_sum(long long value)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    // sm_80 and later add 32-bit values across the warp in one instruction (redux.sync). A 64-bit
    // sum in three 32-bit pieces: the halves of the low word cannot overflow (32 x 0xffff < 2^21),
    // and the high word's sum matters only modulo 2^32.
    const auto bits = static_cast<unsigned long long>(value);
    const unsigned high = __reduce_add_sync(kFullMask, unsigned(bits >> 32));
    const unsigned low_high = __reduce_add_sync(kFullMask, unsigned(bits >> 16) & 0xffffu);
    const unsigned low_low = __reduce_add_sync(kFullMask, unsigned(bits) & 0xffffu);
    return static_cast<long long>((static_cast<unsigned long long>(high) << 32) +
                                  (static_cast<unsigned long long>(low_high) << 16) + low_low);
#else
    for (unsigned offset = kWarpSize / 2; offset > 0; offset /= 2)
        value += __shfl_down_sync(kFullMask, value, offset);
    return value;
#endif
}
//! [warp_sum]

//! [block_sum]
/// The sum of `value` over the block, in thread 0: one slot of shared memory per warp, one barrier.
__device__ long long block_sum(long long value)
{
    __shared__ long long slots[kMaxWarps];
    const unsigned lane = threadIdx.x % kWarpSize;
    const unsigned warp = threadIdx.x / kWarpSize;

    value = warp_sum(value);
    if (lane == 0)
        slots[warp] = value;  // each warp's sum
    __syncthreads();          // every slot written before the first warp reads them
    if (warp == 0) {
        // The whole first warp takes part (the shuffles name all 32 lanes); lanes past the
        // block's warps add zero. A block of 96 threads has 3 warps: no power of two needed.
        value = lane < blockDim.x / kWarpSize ? slots[lane] : 0;
        value = warp_sum(value);
    }
    return value;
}
//! [block_sum]

/// Widened before adding: four ints near 2^31 overflow an int.
__device__ long long add4(int4 v)
{
    return (long long)v.x + v.y + v.z + v.w;
}

}  // namespace

//! [shuffle_sum]
extern "C" __global__ void shuffle_sum(const int* __restrict__ data, std::size_t n, long long* __restrict__ partials)
{
    const std::size_t thread = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    const std::size_t threads = std::size_t(gridDim.x) * blockDim.x;
    long long sum = 0;

    // Head: an int4 load needs a 16-byte aligned address. The elements before the first such
    // address (0 to 3 of them, never more than n) are added one by one.
    const auto address = reinterpret_cast<std::uintptr_t>(data);
    const std::size_t to_boundary = (sizeof(int4) - address % sizeof(int4)) % sizeof(int4) / sizeof(int);
    const std::size_t head = to_boundary < n ? to_boundary : n;
    if (thread < head)
        sum += data[thread];

    // Body: whole int4 vectors from the aligned address, kUnroll independent loads in flight.
    const auto* vectors = reinterpret_cast<const int4*>(data + head);
    const std::size_t vector_count = (n - head) / kPerVector;
    std::size_t i = thread;
    for (; i + (kUnroll - 1) * threads < vector_count; i += kUnroll * threads) {
        int4 v[kUnroll];
#pragma unroll
        for (unsigned u = 0; u < kUnroll; ++u)
            v[u] = vectors[i + u * threads];
#pragma unroll
        for (unsigned u = 0; u < kUnroll; ++u)
            sum += add4(v[u]);
    }
    for (; i < vector_count; i += threads)
        sum += add4(vectors[i]);

    // Tail: the last (n - head) % 4 elements, one thread each.
    const std::size_t tail = head + vector_count * kPerVector + thread;
    if (tail < n)
        sum += data[tail];

    sum = block_sum(sum);
    if (threadIdx.x == 0)
        partials[blockIdx.x] = sum;
}
//! [shuffle_sum]
