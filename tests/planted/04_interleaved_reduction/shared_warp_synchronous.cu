// Planted bug for lesson 04's grader: the last warp of the shared-memory tree written
// warp-synchronously, as before Volta (`volatile`, no __syncwarp() between the steps): a lane reads
// the word another lane of its warp wrote in the step before. On a GPU the lanes of a warp usually
// still run in step and the sums come out right; it is a data race all the same (independent
// thread scheduling): the simulator's race check reports it, compute-sanitizer's racecheck too.
// The grader must reject this kernel (tests/planted/04_interleaved_reduction/CMakeLists.txt says with which message).

#include "interleaved_reduction.cuh"

extern "C" __global__ void reduce_shared_interleaved(const int* data, int* partials, std::size_t n)
{
    extern __shared__ int cache[];
    const unsigned tid = threadIdx.x;
    const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + tid;

    cache[tid] = i < n ? data[i] : 0;
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 32; stride /= 2) {
        if (tid < stride)
            cache[tid] += cache[tid + stride];
        __syncthreads();
    }
    if (tid < 32) {
        volatile int* last = cache;
        for (unsigned stride = blockDim.x < 64 ? blockDim.x / 2 : 32; stride > 0; stride /= 2)
            if (tid < stride)
                last[tid] = last[tid] + last[tid + stride];  // no __syncwarp(): "the warp runs in lockstep"
    }
    if (tid == 0)
        partials[blockIdx.x] = cache[0];
}
