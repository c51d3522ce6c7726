// Planted bug for lesson 07's grader: the last warp as the seeds and Harris's kernel 5 wrote it, warp-synchronous: a volatile pointer, no __syncwarp() between the steps, so lane 0 may read cache[16] before or after lane 16 writes it (a race since Volta).
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
    volatile int* vcache = cache;
    if constexpr (kBlock >= 64)
        vcache[tid] = vcache[tid] + vcache[tid + 32];
    vcache[tid] = vcache[tid] + vcache[tid + 16];
    vcache[tid] = vcache[tid] + vcache[tid + 8];
    vcache[tid] = vcache[tid] + vcache[tid + 4];
    vcache[tid] = vcache[tid] + vcache[tid + 2];
    vcache[tid] = vcache[tid] + vcache[tid + 1];
}

template <unsigned kBlock>
__device__ void reduce_unrolled(const int* data, int* partials, std::size_t n)
{
    // As Harris's code: twice the block for 32 threads, since lanes 16..31 read up to cache[47].
    __shared__ int cache[kBlock < 64 ? 64 : kBlock];
    const unsigned tid = threadIdx.x;
    cache[tid] = add_during_load<kBlock>(data, n);
    __syncthreads();
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
