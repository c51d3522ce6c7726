// plants: nothing wrong: a right reduce_interleaved whose last five steps, which only touch the
//   slice's first 32 words, run in warp 0 alone, each step ordered by __syncwarp() instead of a
//   block-wide barrier. The grader must pass it, speed included.
// replaces: reduce_interleaved.cu
// passes: *reduce_interleaved*

#include "interleaved_reduction.cuh"

namespace {

constexpr unsigned kWarp = 32;

}  // namespace

extern "C" __global__ void reduce_interleaved(int* data, int* partials, std::size_t n)
{
    const unsigned tid = threadIdx.x;
    const std::size_t first = std::size_t(blockIdx.x) * blockDim.x;
    int* slice = data + first;
    const std::size_t left = n - first;
    const unsigned count = left < blockDim.x ? static_cast<unsigned>(left) : blockDim.x;

    // Block-wide steps while the adding threads fill more than one warp.
    unsigned stride = blockDim.x / 2;
    for (; stride >= kWarp; stride /= 2) {
        if (tid < stride && tid + stride < count)
            slice[tid] += slice[tid + stride];
        __syncthreads();
    }
    // The remaining steps read and write slice[0, 32) only. Within a step the written words
    // [0, stride) and the read words [stride, 2 * stride) do not overlap; __syncwarp() makes one
    // step's stores visible to the lanes of the next.
    if (tid < kWarp) {
        for (; stride > 0; stride /= 2) {
            if (tid < stride && tid + stride < count)
                slice[tid] += slice[tid + stride];
            __syncwarp();
        }
        if (tid == 0)
            partials[blockIdx.x] = slice[0];
    }
}
