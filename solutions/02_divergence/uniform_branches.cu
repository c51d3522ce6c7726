// Lesson 02 reference solution: the divergent kernels' outputs, with every warp on one path.
// Device code only: the lesson launches both kernels (lessons/02_divergence/divergence.cuh).
//
//   ./course run 02 --solution

#include "divergence.cuh"

namespace {

constexpr unsigned kWarp = 32;        // warpSize on every GPU CUDA 13 supports; needed at compile time
constexpr unsigned kMaxBlock = 1024;  // the largest block the lesson launches

}  // namespace

//! [index_parity_uniform]
extern "C" __global__ void index_parity_uniform(const int* in, int* out, std::size_t n)
{
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
//! [index_parity_uniform]

//! [value_parity_uniform]
extern "C" __global__ void value_parity_uniform(const int* in, int* out, std::size_t n)
{
    // The block's elements, sorted by path: their offsets from the block's first element.
    __shared__ unsigned evens[kMaxBlock];
    __shared__ unsigned odds[kMaxBlock];
    __shared__ unsigned even_count;
    __shared__ unsigned odd_count;
    const std::size_t first = std::size_t(blockIdx.x) * blockDim.x;
    if (threadIdx.x == 0)
        even_count = odd_count = 0;
    __syncthreads();

    // Step 1, cheap: each thread files its element under its path (the order within a list does
    // not matter, every element gets its own result).
    if (first + threadIdx.x < n) {
        if (in[first + threadIdx.x] % 2 == 0)
            evens[atomicAdd(&even_count, 1u)] = threadIdx.x;
        else
            odds[atomicAdd(&odd_count, 1u)] = threadIdx.x;
    }
    __syncthreads();

    // Step 2, heavy: slots [0, even_slots) hold the even list, padded to a whole number of warps;
    // the odd list follows. A warp's 32 slots therefore lie in one list: one path per warp.
    const unsigned even_slots = (even_count + kWarp - 1) / kWarp * kWarp;
    const unsigned slots = even_slots + odd_count;
    for (unsigned slot = threadIdx.x; slot < slots; slot += blockDim.x) {
        if (slot < even_slots) {
            if (slot < even_count) {
                const std::size_t i = first + evens[slot];
                out[i] = static_cast<int>(lesson02::even_path(static_cast<std::uint32_t>(in[i])));
            }
        } else {
            const std::size_t i = first + odds[slot - even_slots];
            out[i] = static_cast<int>(lesson02::odd_path(static_cast<std::uint32_t>(in[i])));
        }
    }
}
//! [value_parity_uniform]
