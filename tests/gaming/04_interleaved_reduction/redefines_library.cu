// Gaming attempt: the starter, plus host definitions of the course library's speed check and
// failure reporting that always pass, which a grader linking student code would call instead of
// its own. A module holds no host code: the grader's own functions judge.
//
// replaces: reduce_shared_interleaved.cu
// expect: ^fail: too slow: reduce_shared_interleaved

#include "interleaved_reduction.cuh"

#include <string_view>

extern "C" __global__ void reduce_shared_interleaved(const int* data, int* partials, std::size_t n)
{
    extern __shared__ int cache[];
    const unsigned tid = threadIdx.x;
    const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + tid;
    cache[tid] = i < n ? data[i] : 0;
    __syncthreads();
    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
        if (tid % (2 * stride) == 0)
            cache[tid] += cache[tid + stride];
        __syncthreads();
    }
    if (tid == 0)
        partials[blockIdx.x] = cache[0];
}

namespace course::grading {

struct Technique;
struct Comparison;

void check_technique(const Technique&, std::string_view)
{
}
void check_speedup(const Comparison&, double, std::string_view, std::string_view, std::string_view)
{
}

}  // namespace course::grading
