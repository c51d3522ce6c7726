// Lesson 01 baselines for exercise 2: counting with one atomic per thread. See
// lessons/01_warp_basics/README.md, section "One atomic per warp".
//
//   ./course run 01 --kernel per-thread-atomic
//   ./course run 01 --kernel compiler-aggregated

#include "warp_basics.hpp"

#include "course/cuda_check.hpp"
#include "course/reduction.hpp"

namespace lesson01 {
namespace {

//! [count_per_thread]
__global__ void count_per_thread(const int* data, std::size_t n, int threshold, unsigned long long* count)
{
    const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) {
        // A 64-bit operand that differs from lane to lane: nvcc 13.0 leaves this as it is written,
        // one atomic instruction per thread, all of them on the same address.
        const unsigned long long below = data[i] < threshold ? 1 : 0;
        atomicAdd(count, below);
    }
}
//! [count_per_thread]

//! [count_compiler_aggregated]
__global__ void count_compiler_aggregated(const int* data, std::size_t n, int threshold, unsigned long long* count)
{
    const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    // The same constant added to one address by the active threads of a warp: the compiler
    // counts them (a vote and a population count) and lets one thread issue a single atomic.
    if (i < n && data[i] < threshold)
        atomicAdd(count, 1ull);
}
//! [count_compiler_aggregated]

}  // namespace

void launch_count_per_thread(const int* data, std::size_t n, int threshold, unsigned long long* count, unsigned block,
                             cudaStream_t stream)
{
    COURSE_CUDA_CHECK(cudaMemsetAsync(count, 0, sizeof *count, stream));
    count_per_thread<<<course::blocks_for(n, block), block, 0, stream>>>(data, n, threshold, count);
}

void launch_count_compiler_aggregated(const int* data, std::size_t n, int threshold, unsigned long long* count,
                                      unsigned block, cudaStream_t stream)
{
    COURSE_CUDA_CHECK(cudaMemsetAsync(count, 0, sizeof *count, stream));
    count_compiler_aggregated<<<course::blocks_for(n, block), block, 0, stream>>>(data, n, threshold, count);
}

}  // namespace lesson01
