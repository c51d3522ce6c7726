// Lesson 07 reference solution: lesson 04's shared-memory block reduction, unrolled three ways:
// 8 data blocks added during the load, the last warp's steps ordered by __syncwarp(), and the block
// size a template parameter (complete unrolling).
//
//   ./course run 07 --solution --kernel unrolled

#include "unrolling.cuh"

//! [data_blocks]
// Each block sums 8 data blocks: the lesson launches an eighth of lesson 04's grid.
constexpr unsigned kDataBlocks = 8;
extern "C" __constant__ unsigned reduce_unrolled_data_blocks = kDataBlocks;
//! [data_blocks]

namespace {

//! [add_during_load]
/// This thread's kDataBlocks elements, one from each of its block's data blocks, added.
template <unsigned kBlock>
__device__ int add_during_load(const int* data, std::size_t n)
{
    const std::size_t first = std::size_t(blockIdx.x) * kDataBlocks * kBlock + threadIdx.x;
    // All eight loads first, into registers, then the adds: the loads do not depend on each other,
    // so they are in flight together (32 bytes per thread, 1 KB per warp).
    int value[kDataBlocks];
    if (first + (kDataBlocks - 1) * kBlock < n) {
        // The thread's last element exists, so all of them do (every block but the last).
#pragma unroll
        for (unsigned k = 0; k < kDataBlocks; ++k)
            value[k] = data[first + k * kBlock];
    } else {
        // The last block: a partial data block, or none at all for some k. Zeros past the end.
#pragma unroll
        for (unsigned k = 0; k < kDataBlocks; ++k)
            value[k] = first + k * kBlock < n ? data[first + k * kBlock] : 0;
    }
    int sum = 0;
#pragma unroll
    for (unsigned k = 0; k < kDataBlocks; ++k)
        sum += value[k];
    return sum;
}
//! [add_during_load]

//! [last_warp]
/// The last steps, cache[0, min(64, kBlock)) down to cache[0], by the 32 threads of warp 0 (all of
/// them reach every __syncwarp()). In each step the adding lanes, tid < stride, read words
/// [stride, 2 * stride) and write words [0, stride): no word is both read and written within a
/// step, and __syncwarp() orders one step's stores before the next step's loads. No volatile: the
/// barrier is what makes another lane's store visible.
template <unsigned kBlock>
__device__ void reduce_last_warp(int* cache, unsigned tid)
{
    if constexpr (kBlock >= 64) {
        cache[tid] += cache[tid + 32];
        __syncwarp();
    }
#pragma unroll
    for (unsigned stride = 16; stride > 0; stride /= 2) {
        if (tid < stride)
            cache[tid] += cache[tid + stride];
        __syncwarp();
    }
}
//! [last_warp]

//! [reduce_unrolled]
template <unsigned kBlock>
__device__ void reduce_unrolled(const int* data, int* partials, std::size_t n)
{
    extern __shared__ int cache[];  // kBlock ints, sized by the lesson's launch
    const unsigned tid = threadIdx.x;
    cache[tid] = add_during_load<kBlock>(data, n);
    __syncthreads();

    // kBlock is a constant: the compiler unrolls this loop completely, one step per stride with
    // its bound in the instruction, and leaves it out entirely for kBlock <= 64.
#pragma unroll
    for (unsigned stride = kBlock / 2; stride > 32; stride /= 2) {
        if (tid < stride)
            cache[tid] += cache[tid + stride];
        __syncthreads();
    }
    if (tid < 32)
        reduce_last_warp<kBlock>(cache, tid);
    if (tid == 0)
        partials[blockIdx.x] = cache[0];
}
//! [reduce_unrolled]

}  // namespace

// One kernel per block size, each launched only with blocks of that size.
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
