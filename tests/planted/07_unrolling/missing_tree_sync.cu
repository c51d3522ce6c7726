// Planted bug for lesson 07's grader: no __syncthreads() between the tree's block-wide steps: a thread may read a sum another warp has not finished.
// The grader must reject this kernel (tests/planted/07_unrolling/CMakeLists.txt says with which message).

#include "unrolling.cuh"

constexpr unsigned kDataBlocks = 8;
extern "C" __constant__ unsigned reduce_unrolled_data_blocks = kDataBlocks;

template <unsigned kBlock>
__device__ int add_during_load(const int* data, std::size_t n)
{
    const std::size_t first = std::size_t(blockIdx.x) * kDataBlocks * kBlock + threadIdx.x;
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
    return sum;
}

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

template <unsigned kBlock>
__device__ void reduce_unrolled(const int* data, int* partials, std::size_t n)
{
    extern __shared__ int cache[];
    const unsigned tid = threadIdx.x;
    cache[tid] = add_during_load<kBlock>(data, n);
    __syncthreads();
#pragma unroll
    for (unsigned stride = kBlock / 2; stride > 32; stride /= 2) {
        if (tid < stride)
            cache[tid] += cache[tid + stride];
    }
    if (tid < 32)
        reduce_last_warp<kBlock>(cache, tid);
    if (tid == 0)
        partials[blockIdx.x] = cache[0];
}

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
