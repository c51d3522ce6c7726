// plants: nothing wrong: right uniform kernels written another way. In index_parity_uniform each
//   pair of warps covers 128 elements, two per lane of one parity (two independent heavy chains
//   per thread), in a loop over the grid's pairs. value_parity_uniform keeps its lists in element
//   order with cooperative groups' exclusive_scan, per warp and then over the warps' counts, and
//   runs the evens and then the odds from warp 0. The grader must pass it, speed included.
// replaces: uniform_branches.cu
// passes: *

#include "divergence.cuh"

#include <cooperative_groups.h>
#include <cooperative_groups/scan.h>

namespace cg = cooperative_groups;

namespace {

constexpr unsigned kWarp = 32;
constexpr unsigned kMaxBlock = 1024;
constexpr unsigned kPerPair = 4 * kWarp;  // elements a pair of warps covers in one trip

}  // namespace

extern "C" __global__ void index_parity_uniform(const int* in, int* out, std::size_t n)
{
    const std::size_t thread = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    const std::size_t warp = thread / kWarp;
    const std::size_t pairs = std::size_t(gridDim.x) * blockDim.x / (2 * kWarp);
    const unsigned lane = threadIdx.x % kWarp;
    const auto parity = static_cast<unsigned>(warp % 2);
    // Lane l of the pair's even warp takes base + 2l and base + 64 + 2l, of its odd warp the index
    // after each. The grid has twice the pairs it needs, so most pairs make one trip or none.
    for (std::size_t base = warp / 2 * kPerPair; base < n; base += pairs * kPerPair) {
        const std::size_t i0 = base + 2 * lane + parity;
        const std::size_t i1 = i0 + 2 * kWarp;
        // Both chains run on every lane (the second on a dummy 0 past n): no split on the count.
        const auto x0 = static_cast<std::uint32_t>(i0 < n ? in[i0] : 0);
        const auto x1 = static_cast<std::uint32_t>(i1 < n ? in[i1] : 0);
        std::uint32_t y0;
        std::uint32_t y1;
        if (parity == 0) {
            y0 = lesson02::even_path(x0);
            y1 = lesson02::even_path(x1);
        } else {
            y0 = lesson02::odd_path(x0);
            y1 = lesson02::odd_path(x1);
        }
        if (i0 < n)
            out[i0] = static_cast<int>(y0);
        if (i1 < n)
            out[i1] = static_cast<int>(y1);
    }
}

extern "C" __global__ void value_parity_uniform(const int* in, int* out, std::size_t n)
{
    __shared__ unsigned evens[kMaxBlock];  // offsets from the block's first element, in order
    __shared__ unsigned odds[kMaxBlock];
    __shared__ unsigned even_before[kMaxBlock / kWarp];  // per warp: the evens of the warps before it
    __shared__ unsigned odd_before[kMaxBlock / kWarp];
    __shared__ unsigned totals[2];
    const cg::thread_block block = cg::this_thread_block();
    const cg::thread_block_tile<kWarp> warp = cg::tiled_partition<kWarp>(block);
    const unsigned tid = block.thread_rank();
    const unsigned w = warp.meta_group_rank();
    const unsigned lane = warp.thread_rank();
    const std::size_t first = std::size_t(blockIdx.x) * blockDim.x;

    const bool valid = first + tid < n;
    const unsigned is_even = valid && in[first + tid] % 2 == 0 ? 1u : 0u;
    const unsigned is_odd = valid && is_even == 0 ? 1u : 0u;
    // This element's rank among its warp's elements of the same parity.
    const unsigned even_rank = cg::exclusive_scan(warp, is_even);
    const unsigned odd_rank = cg::exclusive_scan(warp, is_odd);
    if (lane == kWarp - 1) {
        even_before[w] = even_rank + is_even;
        odd_before[w] = odd_rank + is_odd;
    }
    block.sync();

    // Warp 0: the warps' counts into exclusive prefix sums, and the block's totals.
    if (w == 0) {
        const unsigned warps = warp.meta_group_size();
        const unsigned own_even = lane < warps ? even_before[lane] : 0;
        const unsigned own_odd = lane < warps ? odd_before[lane] : 0;
        const unsigned even_start = cg::exclusive_scan(warp, own_even);
        const unsigned odd_start = cg::exclusive_scan(warp, own_odd);
        if (lane < warps) {
            even_before[lane] = even_start;
            odd_before[lane] = odd_start;
        }
        if (lane == kWarp - 1) {
            totals[0] = even_start + own_even;
            totals[1] = odd_start + own_odd;
        }
    }
    block.sync();
    if (is_even)
        evens[even_before[w] + even_rank] = tid;
    if (is_odd)
        odds[odd_before[w] + odd_rank] = tid;
    block.sync();

    // Two passes from warp 0: a warp's 32 slots lie in one list, so each pass is one path per warp.
    for (unsigned slot = tid; slot < totals[0]; slot += blockDim.x) {
        const std::size_t i = first + evens[slot];
        out[i] = static_cast<int>(lesson02::even_path(static_cast<std::uint32_t>(in[i])));
    }
    for (unsigned slot = tid; slot < totals[1]; slot += blockDim.x) {
        const std::size_t i = first + odds[slot];
        out[i] = static_cast<int>(lesson02::odd_path(static_cast<std::uint32_t>(in[i])));
    }
}
