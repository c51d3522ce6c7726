// Lesson 04 reference solution: the shared-memory block reduction with sequential addressing.
//
//   ./course run 04 --solution --kernel shared-interleaved

#include "interleaved_reduction.cuh"

//! [reduce_shared_interleaved]
extern "C" __global__ void reduce_shared_interleaved(const int* data, int* partials, std::size_t n)
{
    extern __shared__ int cache[];  // blockDim.x ints, sized by the lesson's launch
    const unsigned tid = threadIdx.x;
    const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + tid;
    // One global load per element; zeros past the end of the array keep the tree free of bound checks.
    cache[tid] = i < n ? data[i] : 0;
    __syncthreads();  // every element is in shared memory before anyone adds

    for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
        // Sequential addressing: lane l reads words l and l + stride of its warp's run, 32
        // consecutive words each time, one per bank: no bank conflicts at any stride.
        if (tid < stride)
            cache[tid] += cache[tid + stride];
        __syncthreads();  // this step's sums are complete before the next step reads them
    }
    if (tid == 0)
        partials[blockIdx.x] = cache[0];
}
//! [reduce_shared_interleaved]
