// plants: nothing wrong: right uniform kernels written another way. index_parity_uniform splits the
//   grid in halves: the first half of the threads take the even indices, the second half the odd
//   ones (each half a whole number of warps). value_parity_uniform files its elements in one list
//   from both ends, evens from the bottom up and odds from 32 slots past the block's end down, with
//   one shared atomic per thread on the counter its parity picks (no branch): at least a warp's
//   width of slots lies between the two, so no warp's slots hold both. The grader must pass it,
//   speed included.
// replaces: uniform_branches.cu
// passes: *

#include "divergence.cuh"

namespace {

constexpr unsigned kWarp = 32;
constexpr unsigned kMaxBlock = 1024;

}  // namespace

extern "C" __global__ void index_parity_uniform(const int* in, int* out, std::size_t n)
{
    // The grid holds an even number of warps, so each half is a whole number of warps, and each
    // half has at least ceil(n / 2) threads: enough for every index of its parity.
    const std::size_t threads = std::size_t(gridDim.x) * blockDim.x;
    const std::size_t half = threads / 2;
    const std::size_t thread = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    const bool even = thread < half;
    const std::size_t i = even ? 2 * thread : 2 * (thread - half) + 1;
    if (i >= n)
        return;
    const auto x = static_cast<std::uint32_t>(in[i]);
    if (even)
        out[i] = static_cast<int>(lesson02::even_path(x));
    else
        out[i] = static_cast<int>(lesson02::odd_path(x));
}

extern "C" __global__ void value_parity_uniform(const int* in, int* out, std::size_t n)
{
    // Offsets into the block's elements. Evens take slots 0, 1, ... and odds slots top, top - 1,
    // ... with top = blockDim.x + 31: with evens + odds <= blockDim.x, the last even slot and the
    // first odd one are more than 31 apart.
    __shared__ unsigned slots[kMaxBlock + kWarp];
    __shared__ unsigned counts[2];  // [0]: evens filed, [1]: odds filed
    const unsigned tid = threadIdx.x;
    const unsigned top = blockDim.x + kWarp - 1;
    const std::size_t first = std::size_t(blockIdx.x) * blockDim.x;
    const int* block_in = in + first;
    int* block_out = out + first;
    const unsigned count = n - first < blockDim.x ? unsigned(n - first) : blockDim.x;
    if (tid < 2)
        counts[tid] = 0;
    __syncthreads();

    if (tid < count) {
        const unsigned parity = static_cast<unsigned>(block_in[tid]) & 1u;  // & 1: right for negative values too
        const unsigned k = atomicAdd(&counts[parity], 1u);
        slots[parity != 0 ? top - k : k] = tid;
    }
    __syncthreads();

    // A warp's slots are 32 consecutive ones starting at a multiple of 32, so they meet evens or
    // odds, never both. Warp 0 also takes the 32 slots past blockDim.x.
    const unsigned evens = counts[0];
    const unsigned odds_from = top + 1 - counts[1];
    for (unsigned slot = tid; slot <= top; slot += blockDim.x) {
        if (slot < evens) {
            const unsigned j = slots[slot];
            block_out[j] = static_cast<int>(lesson02::even_path(static_cast<std::uint32_t>(block_in[j])));
        } else if (slot >= odds_from) {
            const unsigned j = slots[slot];
            block_out[j] = static_cast<int>(lesson02::odd_path(static_cast<std::uint32_t>(block_in[j])));
        }
    }
}
