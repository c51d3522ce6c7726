// Lesson 07's ladder: the shared-memory block reduction of lesson 04, unrolled one step at a time.
// Each block sums several data blocks, adding them while it loads (2, 4, 8: reduceUnrolling2/4/8 of
// Professional CUDA C Programming, ch. 3); then the last warp's steps run without block-wide
// barriers; then the block size becomes a template parameter. See lessons/07_unrolling/README.md.
//
//   ./course run 07 --kernel unrolling8
//   ./course run 07 --kernel complete-unroll8

#include "unrolling.hpp"

#include <stdexcept>
#include <string>

namespace lesson07 {
namespace {

//! [reduce_unrolling]
/// The sum of this thread's kDataBlocks elements, one from each of its block's data blocks of
/// `block` elements: the first step of the tree, done during the load.
template <unsigned kDataBlocks>
__device__ int add_during_load(const int* data, std::size_t n, unsigned block)
{
    const std::size_t first = std::size_t(blockIdx.x) * kDataBlocks * block + threadIdx.x;
    // All the loads first, into registers, then the adds: the loads are independent, so they are
    // all in flight at once.
    int value[kDataBlocks];
    if (first + std::size_t(kDataBlocks - 1) * block < n) {
        // The thread's last element exists, so all of them do (every block but the last).
#pragma unroll
        for (unsigned k = 0; k < kDataBlocks; ++k)
            value[k] = data[first + std::size_t(k) * block];
    } else {
        // The last block: zeros for the elements at n or beyond.
#pragma unroll
        for (unsigned k = 0; k < kDataBlocks; ++k)
            value[k] = first + std::size_t(k) * block < n ? data[first + std::size_t(k) * block] : 0;
    }
    int sum = 0;
#pragma unroll
    for (unsigned k = 0; k < kDataBlocks; ++k)
        sum += value[k];
    return sum;
}

/// Lesson 04's tree, after adding kDataBlocks data blocks during the load.
template <unsigned kDataBlocks>
__global__ void reduce_unrolling(const int* data, int* partials, std::size_t n)
{
    extern __shared__ int cache[];  // blockDim.x ints, sized by the launch
    const unsigned tid = threadIdx.x;
    cache[tid] = add_during_load<kDataBlocks>(data, n, blockDim.x);
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (tid < stride)
            cache[tid] += cache[tid + stride];
        __syncthreads();
    }
    if (tid == 0)
        partials[blockIdx.x] = cache[0];
}
//! [reduce_unrolling]

//! [last_warp]
/// The tree's last steps, from cache[0, min(64, block)) to cache[0], run by the 32 threads of warp
/// 0 (all of them). Within a step the lanes that add read only words no lane writes in that step;
/// __syncwarp() between steps makes each step's stores visible to the next step's loads.
__device__ void reduce_last_warp(int* cache, unsigned tid, unsigned block)
{
    if (block >= 64) {
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

/// 8 data blocks added during the load, the tree with __syncthreads() down to 64 elements, then
/// the last warp alone.
__global__ void reduce_unrolled_warp8(const int* data, int* partials, std::size_t n)
{
    extern __shared__ int cache[];
    const unsigned tid = threadIdx.x;
    cache[tid] = add_during_load<8>(data, n, blockDim.x);
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 32; stride /= 2) {
        if (tid < stride)
            cache[tid] += cache[tid + stride];
        __syncthreads();
    }
    if (tid < 32)
        reduce_last_warp(cache, tid, blockDim.x);
    if (tid == 0)
        partials[blockIdx.x] = cache[0];
}

//! [complete_unroll]
/// The same with kBlock = blockDim.x known to the compiler: the loop below is unrolled into one
/// step per stride, every bound is a constant, and the shared array is sized statically.
template <unsigned kBlock>
__global__ void __launch_bounds__(kBlock) reduce_complete_unroll8(const int* data, int* partials, std::size_t n)
{
    __shared__ int cache[kBlock];
    const unsigned tid = threadIdx.x;
    cache[tid] = add_during_load<8>(data, n, kBlock);
    __syncthreads();
#pragma unroll
    for (unsigned stride = kBlock / 2; stride > 32; stride /= 2) {
        if (tid < stride)
            cache[tid] += cache[tid + stride];
        __syncthreads();
    }
    if (tid < 32)
        reduce_last_warp(cache, tid, kBlock);
    if (tid == 0)
        partials[blockIdx.x] = cache[0];
}
//! [complete_unroll]

template <unsigned kDataBlocks>
void launch_unrolling(int* data, int* partials, std::size_t n, unsigned block, cudaStream_t stream)
{
    reduce_unrolling<kDataBlocks>
        <<<course::blocks_for(n, kDataBlocks * block), block, block * sizeof(int), stream>>>(data, partials, n);
}

template <unsigned kBlock>
void launch_complete(int* data, int* partials, std::size_t n, cudaStream_t stream)
{
    reduce_complete_unroll8<kBlock><<<course::blocks_for(n, 8 * kBlock), kBlock, 0, stream>>>(data, partials, n);
}

}  // namespace

void launch_reduce_unrolling2(int* data, int* partials, std::size_t n, unsigned block, cudaStream_t stream)
{
    launch_unrolling<2>(data, partials, n, block, stream);
}

void launch_reduce_unrolling4(int* data, int* partials, std::size_t n, unsigned block, cudaStream_t stream)
{
    launch_unrolling<4>(data, partials, n, block, stream);
}

void launch_reduce_unrolling8(int* data, int* partials, std::size_t n, unsigned block, cudaStream_t stream)
{
    launch_unrolling<8>(data, partials, n, block, stream);
}

void launch_reduce_unrolled_warp8(int* data, int* partials, std::size_t n, unsigned block, cudaStream_t stream)
{
    reduce_unrolled_warp8<<<course::blocks_for(n, 8 * block), block, block * sizeof(int), stream>>>(data, partials, n);
}

void launch_reduce_complete_unroll8(int* data, int* partials, std::size_t n, unsigned block, cudaStream_t stream)
{
    switch (block) {
    case 32:
        launch_complete<32>(data, partials, n, stream);
        break;
    case 64:
        launch_complete<64>(data, partials, n, stream);
        break;
    case 128:
        launch_complete<128>(data, partials, n, stream);
        break;
    case 256:
        launch_complete<256>(data, partials, n, stream);
        break;
    case 512:
        launch_complete<512>(data, partials, n, stream);
        break;
    case 1024:
        launch_complete<1024>(data, partials, n, stream);
        break;
    default:
        throw std::invalid_argument("reduce_complete_unroll8: block " + std::to_string(block) +
                                    " is not a power of two from 32 to 1024");
    }
}

}  // namespace lesson07
