// Lesson 04 exercise 2: the block reduction in shared memory with sequential addressing. Read
// lessons/04_interleaved_reduction/README.md first.
//
// This starter is shared-memory version 1 of the University of Verona CUDA slides (reduce0 of a
// blog post on shared-memory reduction): one load per thread into shared memory, then the
// neighbored tree (tid % (2 * stride)). It is right and slow. Keep the load; change the tree so
// that the threads tid < stride add cache[tid + stride] to cache[tid], the stride starting at half
// the block. Exact sums for any n and any power-of-two block from 32 to 1024.
//
// This file holds device code only: the lesson launches the kernel with ceil(n / block) blocks and
// blockDim.x ints of dynamic shared memory.
//
//   ./course run 04 --kernel shared-interleaved
//   ./course grade 04

#include "interleaved_reduction.cuh"

extern "C" __global__ void reduce_shared_interleaved(const int* data, int* partials, std::size_t n)
{
    extern __shared__ int cache[];  // blockDim.x ints, sized by the lesson's launch
    const unsigned tid = threadIdx.x;
    const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + tid;
    cache[tid] = i < n ? data[i] : 0;
    __syncthreads();

    // TODO: sequential addressing: stride from blockDim.x / 2 down to 1, threads tid < stride add.
    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
        if (tid % (2 * stride) == 0)
            cache[tid] += cache[tid + stride];
        __syncthreads();
    }
    if (tid == 0)
        partials[blockIdx.x] = cache[0];
}
