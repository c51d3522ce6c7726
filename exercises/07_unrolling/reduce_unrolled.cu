// Lesson 07 exercise: unroll lesson 04's shared-memory block reduction. Read
// lessons/07_unrolling/README.md first.
//
// This starter is lesson 04's reference kernel: one element per thread, then the tree with a
// __syncthreads() after every step. It gives the right sums and is exactly as slow. Make it fast:
//
//   1. Each block sums several data blocks (set kDataBlocks to 8): each thread adds its elements,
//      one from each data block, while it loads them, all its loads issued before any add.
//   2. The last warp: once 64 elements are left, warp 0 finishes alone, each step followed by
//      __syncwarp() instead of __syncthreads() (never the old volatile code with no barrier).
//   3. Optionally, complete unrolling: use kBlock, the block size known at compile time, instead
//      of blockDim.x.
//
// The sums must stay exact for any n (the last block may hold a partial data block, or none of
// some) and every block size, 32 to 1024: reduce_unrolled_32 is launched with blocks of 32.
//
// This file holds device code only: the lesson launches reduce_unrolled_B on
// ceil(n / (reduce_unrolled_data_blocks * B)) blocks of B threads, with B ints of dynamic shared
// memory.
//
//   ./course run 07      # the demo: your kernel beside the whole ladder
//   ./course grade 07    # the grader: exact sums; faster than lesson 04's kernel

#include "unrolling.cuh"

// How many data blocks of blockDim.x elements each block sums. TODO: 8.
constexpr unsigned kDataBlocks = 1;
extern "C" __constant__ unsigned reduce_unrolled_data_blocks = kDataBlocks;

template <unsigned kBlock>
__device__ void reduce_unrolled(const int* data, int* partials, std::size_t n)
{
    extern __shared__ int cache[];  // kBlock ints, sized by the lesson's launch
    const unsigned tid = threadIdx.x;

    // TODO: load and add this thread's kDataBlocks elements, data[first + k * kBlock] for
    // k = 0 .. kDataBlocks - 1 with first = blockIdx.x * kDataBlocks * kBlock + tid, skipping
    // those at n or beyond.
    const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + tid;
    cache[tid] = i < n ? data[i] : 0;
    __syncthreads();

    // TODO: stop this loop at 64 elements (stride > 32) and let warp 0 finish with __syncwarp().
    for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (tid < stride)
            cache[tid] += cache[tid + stride];
        __syncthreads();
    }
    if (tid == 0)
        partials[blockIdx.x] = cache[0];
}

// One kernel per block size, each launched only with blocks of that size.
extern "C" __global__ void reduce_unrolled_32(const int* data, int* partials, std::size_t n)
{
    reduce_unrolled<32>(data, partials, n);
}
extern "C" __global__ void reduce_unrolled_64(const int* data, int* partials, std::size_t n)
{
    reduce_unrolled<64>(data, partials, n);
}
extern "C" __global__ void reduce_unrolled_128(const int* data, int* partials, std::size_t n)
{
    reduce_unrolled<128>(data, partials, n);
}
extern "C" __global__ void reduce_unrolled_256(const int* data, int* partials, std::size_t n)
{
    reduce_unrolled<256>(data, partials, n);
}
extern "C" __global__ void reduce_unrolled_512(const int* data, int* partials, std::size_t n)
{
    reduce_unrolled<512>(data, partials, n);
}
extern "C" __global__ void reduce_unrolled_1024(const int* data, int* partials, std::size_t n)
{
    reduce_unrolled<1024>(data, partials, n);
}
