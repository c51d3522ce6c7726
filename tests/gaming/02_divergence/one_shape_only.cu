// Gaming attempt: uniform warps only at the one shape the simulator once profiled (2^20 elements
// in blocks of 256), the divergent kernel everywhere else. Speed checks hold at more than one shape
// on the simulator, and a GPU times 2^24 elements.
//
// replaces: uniform_branches.cu
// expect: ^fail: too slow: index_parity_uniform

#include "divergence.cuh"

namespace {

__device__ void divergent(const int* in, int* out, std::size_t n)
{
    const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const auto x = static_cast<std::uint32_t>(in[i]);
    if (i % 2 == 0)
        out[i] = static_cast<int>(lesson02::even_path(x));
    else
        out[i] = static_cast<int>(lesson02::odd_path(x));
}

}  // namespace

extern "C" __global__ void index_parity_uniform(const int* in, int* out, std::size_t n)
{
    if (n != std::size_t{1} << 20 || blockDim.x != 256) {  // not the shape the simulator profiled
        divergent(in, out, n);
        return;
    }
    // Blocks are multiples of 32 threads, so 32 consecutive global thread ids form one warp.
    const std::size_t warp = (std::size_t(blockIdx.x) * blockDim.x + threadIdx.x) / warpSize;
    const unsigned lane = threadIdx.x % warpSize;
    // Warps 2k and 2k+1 share the 64 elements [64k, 64k + 64): the first takes the even ones, the
    // second the odd ones. The branch below is then the same for all 32 lanes of a warp.
    const bool even = warp % 2 == 0;
    const std::size_t i = (warp / 2) * 2 * warpSize + 2 * lane + (even ? 0 : 1);
    if (i >= n)
        return;  // only in the last pair of warps: lanes with nothing to do, not another path
    const auto x = static_cast<std::uint32_t>(in[i]);
    if (even)
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
