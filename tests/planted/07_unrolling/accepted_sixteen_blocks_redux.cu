// plants: nothing wrong: a right reduce_unrolled with 16 data blocks per block (twice the
//   reference's: 16 independent loads in flight per thread, half the blocks), the shared tree
//   unrolled completely down to 64 values, and the last warp's five steps replaced by one
//   __reduce_add_sync. The grader must pass it, speed included.
// replaces: reduce_unrolled.cu
// passes: *

#include "unrolling.cuh"

constexpr unsigned kDataBlocks = 16;
extern "C" __constant__ unsigned reduce_unrolled_data_blocks = kDataBlocks;

namespace {

constexpr unsigned kWarp = 32;
constexpr unsigned kAllLanes = 0xffffffffu;

template <unsigned kBlock>
__device__ int add_during_load(const int* data, std::size_t n)
{
    const std::size_t first = std::size_t(blockIdx.x) * kDataBlocks * kBlock + threadIdx.x;
    // How many of this thread's data blocks hold its element: all of them except in the last block.
    const std::size_t left = first < n ? (n - first + kBlock - 1) / kBlock : 0;
    int value[kDataBlocks];
    if (left >= kDataBlocks) {
#pragma unroll
        for (unsigned k = 0; k < kDataBlocks; ++k)
            value[k] = data[first + k * kBlock];
    } else {
#pragma unroll
        for (unsigned k = 0; k < kDataBlocks; ++k)
            value[k] = k < left ? data[first + k * kBlock] : 0;
    }
    int sum = 0;
#pragma unroll
    for (unsigned k = 0; k < kDataBlocks; ++k)
        sum += value[k];
    return sum;
}

template <unsigned kBlock>
__device__ void reduce_unrolled(const int* data, int* partials, std::size_t n)
{
    extern __shared__ int cache[];  // kBlock ints, sized by the lesson's launch
    const unsigned tid = threadIdx.x;
    int sum = add_during_load<kBlock>(data, n);
    if constexpr (kBlock > kWarp) {
        cache[tid] = sum;
        __syncthreads();
#pragma unroll
        for (unsigned stride = kBlock / 2; stride >= kWarp; stride /= 2) {
            if (tid < stride)
                cache[tid] += cache[tid + stride];
            __syncthreads();
        }
        sum = tid < kWarp ? cache[tid] : 0;
    }
    // Warp 0 holds the block's last 32 values: one warp-wide reduction adds them.
    if (tid < kWarp)
        sum = __reduce_add_sync(kAllLanes, sum);
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
