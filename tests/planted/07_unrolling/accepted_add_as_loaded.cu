// plants: nothing wrong: lesson 07's unrolling written the way it reads, `sum += data[...]` in an
//   unrolled loop over the eight data blocks, so that the PTX places each add right after its load
//   (ld, ld, add, ld, add, ...). The loads do not depend on each other: ptxas issues them together
//   and a GPU has all eight in flight at once. The block's sums meet in a shared-memory tree down to
//   one warp, which finishes with shuffles. The grader must pass it, speed included.
// replaces: reduce_unrolled.cu
// passes: *

#include "unrolling.cuh"

constexpr unsigned kDataBlocks = 8;
extern "C" __constant__ unsigned reduce_unrolled_data_blocks = kDataBlocks;

namespace {

constexpr unsigned kFullMask = 0xffffffffu;

/// The sum of this thread's elements of its block's eight data blocks (those before n).
template <unsigned kBlock>
__device__ int eight_elements(const int* data, std::size_t n)
{
    const std::size_t base = std::size_t(blockIdx.x) * kDataBlocks * kBlock + threadIdx.x;
    int sum = 0;
    if (base + (kDataBlocks - 1) * kBlock < n) {
#pragma unroll
        for (unsigned k = 0; k < kDataBlocks; ++k)
            sum += data[base + k * kBlock];
    } else {
#pragma unroll
        for (unsigned k = 0; k < kDataBlocks; ++k)
            if (base + k * kBlock < n)
                sum += data[base + k * kBlock];
    }
    return sum;
}

template <unsigned kBlock>
__device__ void block_sum(const int* data, int* partials, std::size_t n)
{
    __shared__ int sums[kBlock];
    const unsigned tid = threadIdx.x;
    int sum = eight_elements<kBlock>(data, n);
    if constexpr (kBlock > 32) {
        sums[tid] = sum;
        __syncthreads();
#pragma unroll
        for (unsigned half = kBlock / 2; half >= 32; half /= 2) {
            if (tid < half)
                sums[tid] = sum = sum + sums[tid + half];
            __syncthreads();
        }
    }
    if (tid < 32) {
#pragma unroll
        for (unsigned offset = 16; offset > 0; offset /= 2)
            sum += __shfl_down_sync(kFullMask, sum, offset);
        if (tid == 0)
            partials[blockIdx.x] = sum;
    }
}

}  // namespace

extern "C" __global__ void __launch_bounds__(32) reduce_unrolled_32(const int* data, int* partials, std::size_t n)
{
    block_sum<32>(data, partials, n);
}
extern "C" __global__ void __launch_bounds__(64) reduce_unrolled_64(const int* data, int* partials, std::size_t n)
{
    block_sum<64>(data, partials, n);
}
extern "C" __global__ void __launch_bounds__(128) reduce_unrolled_128(const int* data, int* partials, std::size_t n)
{
    block_sum<128>(data, partials, n);
}
extern "C" __global__ void __launch_bounds__(256) reduce_unrolled_256(const int* data, int* partials, std::size_t n)
{
    block_sum<256>(data, partials, n);
}
extern "C" __global__ void __launch_bounds__(512) reduce_unrolled_512(const int* data, int* partials, std::size_t n)
{
    block_sum<512>(data, partials, n);
}
extern "C" __global__ void __launch_bounds__(1024) reduce_unrolled_1024(const int* data, int* partials, std::size_t n)
{
    block_sum<1024>(data, partials, n);
}
