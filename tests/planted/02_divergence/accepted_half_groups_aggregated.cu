// plants: nothing wrong: right uniform kernels written another way. index_parity_uniform gives the
//   first half of each block's threads the block's even indices and the second half its odd ones
//   (a pair of one-warp blocks for blocks of 32). value_parity_uniform files its elements with one
//   shared atomic per warp and list (warp-aggregated: ballot, popc, the base broadcast by a
//   shuffle), then works through the evens and the odds in two passes, the odds starting at the
//   first warp after the evens'. The grader must pass it, speed included.
// replaces: uniform_branches.cu
// passes: *

#include "divergence.cuh"

namespace {

constexpr unsigned kWarp = 32;
constexpr unsigned kMaxBlock = 1024;
constexpr unsigned kAllLanes = 0xffffffffu;

}  // namespace

extern "C" __global__ void index_parity_uniform(const int* in, int* out, std::size_t n)
{
    // A group is a whole block, or for blocks of one warp the pair of blocks 2k, 2k + 1 (the grid
    // then has an even number of warps). Its first half, a whole number of warps, takes the even
    // indices of the group's elements, its second half the odd ones.
    const unsigned group = blockDim.x < 2 * kWarp ? 2 * kWarp : blockDim.x;
    const unsigned half = group / 2;
    const std::size_t thread = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    const std::size_t base = thread & ~std::size_t(group - 1);
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
    __shared__ unsigned evens[kMaxBlock];  // offsets from the block's first element
    __shared__ unsigned odds[kMaxBlock];
    __shared__ unsigned counts[2];
    const unsigned tid = threadIdx.x;
    const unsigned lane = tid % kWarp;
    const std::size_t first = std::size_t(blockIdx.x) * blockDim.x;
    if (tid == 0)
        counts[0] = counts[1] = 0;
    __syncthreads();

    const bool valid = first + tid < n;
    const bool is_even = valid && in[first + tid] % 2 == 0;
    const bool is_odd = valid && !is_even;
    const unsigned even_votes = __ballot_sync(kAllLanes, is_even);
    const unsigned odd_votes = __ballot_sync(kAllLanes, is_odd);
    // One atomic per list for the whole warp: lane 0 reserves the warp's places, every lane learns
    // where they start, and takes the one its rank among the voting lanes gives.
    unsigned even_base = 0;
    unsigned odd_base = 0;
    if (lane == 0) {
        even_base = atomicAdd(&counts[0], __popc(even_votes));
        odd_base = atomicAdd(&counts[1], __popc(odd_votes));
    }
    even_base = __shfl_sync(kAllLanes, even_base, 0);
    odd_base = __shfl_sync(kAllLanes, odd_base, 0);
    const unsigned lanes_below = (1u << lane) - 1;
    if (is_even)
        evens[even_base + __popc(even_votes & lanes_below)] = tid;
    if (is_odd)
        odds[odd_base + __popc(odd_votes & lanes_below)] = tid;
    __syncthreads();

    // Pass 1: the evens, from warp 0 on; a warp's 32 slots are all evens, or past the list.
    const unsigned even_count = counts[0];
    const unsigned odd_count = counts[1];
    for (unsigned slot = tid; slot < even_count; slot += blockDim.x) {
        const std::size_t i = first + evens[slot];
        out[i] = static_cast<int>(lesson02::even_path(static_cast<std::uint32_t>(in[i])));
    }
    // Pass 2: the odds, from the first warp the evens left idle on, wrapping round the block. The
    // rotation is by whole warps, so a warp's slots are still 32 consecutive odd ones.
    const unsigned wrap = blockDim.x - 1;
    const unsigned start = (even_count + kWarp - 1) / kWarp * kWarp & wrap;
    for (unsigned slot = (tid - start) & wrap; slot < odd_count; slot += blockDim.x) {
        const std::size_t i = first + odds[slot];
        out[i] = static_cast<int>(lesson02::odd_path(static_cast<std::uint32_t>(in[i])));
    }
}
