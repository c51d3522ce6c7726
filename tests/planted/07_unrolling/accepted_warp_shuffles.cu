// plants: nothing wrong: a right reduce_unrolled whose block tree is made of shuffles, not shared
//   memory: 8 data blocks added during the load as in the reference, then __shfl_down_sync within
//   each warp, the warps' sums through a small shared array and one __syncthreads(), and a last
//   round of shuffles in warp 0. The grader must pass it, speed included.
// replaces: reduce_unrolled.cu
// passes: *

#include "unrolling.cuh"

constexpr unsigned kDataBlocks = 8;
extern "C" __constant__ unsigned reduce_unrolled_data_blocks = kDataBlocks;

namespace {

constexpr unsigned kWarp = 32;
constexpr unsigned kAllLanes = 0xffffffffu;

/// Lane 0 ends with the sum of the warp's 32 values.
__device__ int warp_sum(int value)
{
#pragma unroll
    for (unsigned offset = kWarp / 2; offset > 0; offset /= 2)
        value += __shfl_down_sync(kAllLanes, value, offset);
    return value;
}

template <unsigned kBlock>
__device__ void reduce_unrolled(const int* data, int* partials, std::size_t n)
{
    const unsigned tid = threadIdx.x;
    const std::size_t first = std::size_t(blockIdx.x) * kDataBlocks * kBlock + tid;
    // The thread's kDataBlocks elements, loaded before any is added (all in flight at once).
    int value[kDataBlocks];
    if (first + (kDataBlocks - 1) * kBlock < n) {
#pragma unroll
        for (unsigned k = 0; k < kDataBlocks; ++k)
            value[k] = data[first + k * kBlock];
    } else {
#pragma unroll
        for (unsigned k = 0; k < kDataBlocks; ++k)
            value[k] = first + k * kBlock < n ? data[first + k * kBlock] : 0;
    }
    int sum = 0;
#pragma unroll
    for (unsigned k = 0; k < kDataBlocks; ++k)
        sum += value[k];

    sum = warp_sum(sum);
    if constexpr (kBlock > kWarp) {
        // The dynamic shared memory the lesson passes stays unused: kBlock / 32 ints suffice.
        __shared__ int warp_sums[kBlock / kWarp];
        if (tid % kWarp == 0)
            warp_sums[tid / kWarp] = sum;
        __syncthreads();
        if (tid < kWarp) {
            sum = tid < kBlock / kWarp ? warp_sums[tid] : 0;
            sum = warp_sum(sum);
        }
    }
    if (tid == 0)
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
