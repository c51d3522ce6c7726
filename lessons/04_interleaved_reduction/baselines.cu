// Lesson 04 baselines: the two shared-memory block reductions of the University of Verona CUDA
// slides (version 1, neighbored, and version 2, neighbored-less; reduce0 and reduce1 of a blog post
// on shared-memory reduction). Each thread loads one element into shared memory; the tree then runs
// there instead of in global memory. See lessons/04_interleaved_reduction/README.md.
//
//   ./course run 04 --kernel shared-neighbored
//   ./course run 04 --kernel shared-neighbored-less

#include "interleaved_reduction.hpp"

namespace lesson04 {
namespace {

/// Thread tid's element, or 0 past the end of the array: with the block's slice padded by zeros,
/// the tree below needs no bound checks.
__device__ int load_or_zero(const int* data, std::size_t n)
{
    const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    return i < n ? data[i] : 0;
}

__global__ void reduce_shared_neighbored(const int* data, int* partials, std::size_t n)
{
    extern __shared__ int cache[];  // blockDim.x ints, sized by the launch
    const unsigned tid = threadIdx.x;
    cache[tid] = load_or_zero(data, n);
    __syncthreads();

    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
        // Divergent: every warp holds a few adding threads. Free of bank conflicts, though: the
        // adding lanes of a warp read words tid, which fall in different banks.
        if (tid % (2 * stride) == 0)
            cache[tid] += cache[tid + stride];
        __syncthreads();
    }
    if (tid == 0)
        partials[blockIdx.x] = cache[0];
}

//! [reduce_shared_neighbored_less]
__global__ void reduce_shared_neighbored_less(const int* data, int* partials, std::size_t n)
{
    extern __shared__ int cache[];
    const unsigned tid = threadIdx.x;
    cache[tid] = load_or_zero(data, n);
    __syncthreads();

    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
        // The adding threads are packed (no divergence until fewer than 32 remain), but lane l of a
        // warp reads word 2 * stride * l: lanes 16 apart meet in one bank when stride is 1, lanes
        // 8 apart when it is 2, ... a 2-, 4-, 8-, 16-way bank conflict.
        const unsigned index = 2 * stride * tid;
        if (index < blockDim.x)
            cache[index] += cache[index + stride];
        __syncthreads();
    }
    if (tid == 0)
        partials[blockIdx.x] = cache[0];
}
//! [reduce_shared_neighbored_less]

}  // namespace

void launch_reduce_shared_neighbored(int* data, int* partials, std::size_t n, unsigned block, cudaStream_t stream)
{
    reduce_shared_neighbored<<<course::blocks_for(n, block), block, block * sizeof(int), stream>>>(data, partials, n);
}

void launch_reduce_shared_neighbored_less(int* data, int* partials, std::size_t n, unsigned block, cudaStream_t stream)
{
    reduce_shared_neighbored_less<<<course::blocks_for(n, block), block, block * sizeof(int), stream>>>(data, partials,
                                                                                                        n);
}

}  // namespace lesson04
