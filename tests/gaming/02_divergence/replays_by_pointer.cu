// Gaming attempt: computes the output once per input array and size, then returns at once on
// every later call with the same array, leaving the earlier output in place: the timed runs cost
// nothing. The grader checks again on new contents written into the same array: the output left
// in place is wrong.
//
// The judge reads the compiled module before running it and refuses it: its __device__ variables
// would keep state from one call to the next.
//
// replaces: uniform_branches.cu
// expect: ^fail: bad module: [a-z_]+\.fatbin defines module-scope global memory

#include "divergence.cuh"

namespace {

__device__ const int* g_seen[2] = {nullptr, nullptr};
__device__ std::size_t g_seen_n[2] = {0, 0};
__device__ unsigned long long g_blocks_done[2] = {0, 0};

/// True when this kernel already ran on this array and size; the last block of a first call
/// records them.
__device__ bool seen_before(int which, const int* in, std::size_t n)
{
    return g_seen[which] == in && g_seen_n[which] == n;
}

__device__ void remember(int which, const int* in, std::size_t n)
{
    __syncthreads();
    if (threadIdx.x == 0 && atomicAdd(&g_blocks_done[which], 1ull) % gridDim.x == gridDim.x - 1) {
        g_seen[which] = in;
        g_seen_n[which] = n;
    }
}

}  // namespace

extern "C" __global__ void index_parity_uniform(const int* in, int* out, std::size_t n)
{
    if (seen_before(0, in, n))
        return;
    const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) {
        const auto x = static_cast<std::uint32_t>(in[i]);
        out[i] = static_cast<int>(i % 2 == 0 ? lesson02::even_path(x) : lesson02::odd_path(x));
    }
    remember(0, in, n);
}

extern "C" __global__ void value_parity_uniform(const int* in, int* out, std::size_t n)
{
    if (seen_before(1, in, n))
        return;
    const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) {
        const auto x = static_cast<std::uint32_t>(in[i]);
        out[i] = static_cast<int>(in[i] % 2 == 0 ? lesson02::even_path(x) : lesson02::odd_path(x));
    }
    remember(1, in, n);
}
