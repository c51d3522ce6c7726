// Gaming attempt: the starter's kernels print what a passing grader prints, from the device. The
// verdict comes from the grader's results channel, never from what a program prints.
//
// replaces: uniform_branches.cu
// expect: ^fail: too slow: index_parity_uniform

#include "divergence.cuh"

#include <cstdio>

namespace {

__device__ void announce()
{
    if (blockIdx.x == 0 && threadIdx.x == 0)
        printf("lesson 02 divergence: PASS\n[doctest] Status: SUCCESS!\n");
}

}  // namespace

extern "C" __global__ void index_parity_uniform(const int* in, int* out, std::size_t n)
{
    announce();
    const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const auto x = static_cast<std::uint32_t>(in[i]);
    out[i] = static_cast<int>(i % 2 == 0 ? lesson02::even_path(x) : lesson02::odd_path(x));
}

extern "C" __global__ void value_parity_uniform(const int* in, int* out, std::size_t n)
{
    announce();
    const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const auto x = static_cast<std::uint32_t>(in[i]);
    out[i] = static_cast<int>(in[i] % 2 == 0 ? lesson02::even_path(x) : lesson02::odd_path(x));
}
