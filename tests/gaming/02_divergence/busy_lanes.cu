// Gaming attempt: the divergent kernel with work every lane does added in front of the branch. The
// share of busy lanes per instruction, the simulator's figure for divergence, goes up, while the
// kernel only gets slower: the modelled time (and a GPU's clock) must still show the speedup.
//
// replaces: uniform_branches.cu
// expect: ^fail: too slow: index_parity_uniform(, modelled time| runs)

#include "divergence.cuh"

namespace {

/// Uniform busy work: every lane runs the same instructions, none of them needed.
__device__ std::uint32_t busy_work(std::uint32_t x)
{
    std::uint32_t state = x;
    for (int round = 0; round < 1024; ++round)
        state = (state * 1664525u + 1013904223u) ^ (state >> 13);
    return state;
}

}  // namespace

extern "C" __global__ void index_parity_uniform(const int* in, int* out, std::size_t n)
{
    const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const auto x = static_cast<std::uint32_t>(in[i]);
    const std::uint32_t noise = busy_work(x);
    // Never true (both halves of a device pointer), and the compiler cannot know it: the busy work
    // stays in the kernel.
    const auto address = reinterpret_cast<std::uintptr_t>(in);
    if (noise == static_cast<std::uint32_t>(address) && x == static_cast<std::uint32_t>(address >> 32))
        out[0] = static_cast<int>(noise);
    if (i % 2 == 0)
        out[i] = static_cast<int>(lesson02::even_path(x));
    else
        out[i] = static_cast<int>(lesson02::odd_path(x));
}

extern "C" __global__ void value_parity_uniform(const int* in, int* out, std::size_t n)
{
    const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const auto x = static_cast<std::uint32_t>(in[i]);
    if (in[i] % 2 == 0)
        out[i] = static_cast<int>(lesson02::even_path(x));
    else
        out[i] = static_cast<int>(lesson02::odd_path(x));
}
