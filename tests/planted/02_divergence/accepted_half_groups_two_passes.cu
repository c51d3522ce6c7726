// plants: nothing wrong: right uniform kernels written another way. index_parity_uniform gives the
//   first half of each block's threads the block's even indices and the second half its odd ones
//   (a pair of one-warp blocks for blocks of 32). value_parity_uniform files each element with one
//   shared atomic on the counter of its parity (indexed, no branch), then works through the evens
//   and the odds in two passes, the odds starting at the first warp after the evens' (both passes'
//   loads issued first). The grader must pass it, speed included.
// replaces: uniform_branches.cu
// passes: *

#include "divergence.cuh"

namespace {

constexpr unsigned kWarp = 32;
constexpr unsigned kMaxBlock = 1024;

}  // namespace

extern "C" __global__ void index_parity_uniform(const int* in, int* out, std::size_t n)
{
    // A group is a whole block, or for blocks of one warp the pair of blocks 2k, 2k + 1 (the grid
    // then has an even number of warps). Its first half, a whole number of warps, takes the even
    // indices of the group's elements, its second half the odd ones.
    const unsigned group = blockDim.x < 2 * kWarp ? 2 * kWarp : blockDim.x;
    const unsigned half = group / 2;
    const std::size_t thread = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    const std::size_t base = thread & ~std::size_t(group - 1);  // group is a power of two
    const auto t = static_cast<unsigned>(thread - base);
    const bool even = t < half;
    const std::size_t i = base + (even ? 2 * t : 2 * (t - half) + 1);
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
    // [parity]: offsets into the block's elements. The odd list is filed from its end down: a
    // warp's evens then land in banks its odds do not use, and the one store has no conflicts.
    __shared__ unsigned lists[2][kMaxBlock];
    __shared__ unsigned counts[2];
    const unsigned tid = threadIdx.x;
    const std::size_t first = std::size_t(blockIdx.x) * blockDim.x;
    const int* block_in = in + first;
    int* block_out = out + first;
    const unsigned count = n - first < blockDim.x ? unsigned(n - first) : blockDim.x;
    if (tid < 2)
        counts[tid] = 0;
    __syncthreads();

    if (tid < count) {
        const unsigned parity = static_cast<unsigned>(block_in[tid]) & 1u;
        const unsigned k = atomicAdd(&counts[parity], 1u);
        lists[parity][parity != 0 ? kMaxBlock - 1 - k : k] = tid;
    }
    __syncthreads();

    // Pass 1 takes the evens, from warp 0 on: a warp's 32 slots are all evens, or past the list.
    // Pass 2 takes the odds, from the first warp the evens left idle on, wrapping round the block:
    // the rotation is by whole warps, so a warp's slots are still 32 consecutive odd ones. Both
    // passes' loads are issued first, so that they are in flight together.
    const unsigned even_count = counts[0];
    const unsigned odd_count = counts[1];
    const unsigned wrap = blockDim.x - 1;  // blocks are powers of two: & wrap is % blockDim.x
    const unsigned start = (even_count + kWarp - 1) / kWarp * kWarp & wrap;
    const unsigned odd_slot = (tid - start) & wrap;
    const bool takes_even = tid < even_count;
    const bool takes_odd = odd_slot < odd_count;
    const unsigned even_j = takes_even ? lists[0][tid] : 0;
    const unsigned odd_j = takes_odd ? lists[1][kMaxBlock - 1 - odd_slot] : 0;
    const auto even_x = static_cast<std::uint32_t>(takes_even ? block_in[even_j] : 0);
    const auto odd_x = static_cast<std::uint32_t>(takes_odd ? block_in[odd_j] : 0);
    if (takes_even)
        block_out[even_j] = static_cast<int>(lesson02::even_path(even_x));
    if (takes_odd)
        block_out[odd_j] = static_cast<int>(lesson02::odd_path(odd_x));
}
