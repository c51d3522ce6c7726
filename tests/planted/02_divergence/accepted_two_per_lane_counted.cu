// plants: nothing wrong: right uniform kernels written another way. In index_parity_uniform each
//   pair of warps covers 128 elements, two per lane of one parity (two independent heavy chains
//   per thread), in a loop over the grid's pairs. value_parity_uniform counts the block's evens
//   first, with __syncthreads_count, so it knows where the odds start before filing anything: one
//   list, evens at the front, odds from the next multiple of 32 on. The grader must pass it, speed
//   included.
// replaces: uniform_branches.cu
// passes: *

#include "divergence.cuh"

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
    // after each. The grid has twice the pairs it needs, so a pair makes one trip or none.
    for (std::size_t base = warp / 2 * kPerPair; base < n; base += pairs * kPerPair) {
        const std::size_t i0 = base + 2 * lane + parity;
        const std::size_t i1 = i0 + 2 * kWarp;
        // Both chains run on every lane (on a dummy 0 past n): the count splits no warp.
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
    __shared__ unsigned slots[kMaxBlock + kWarp];  // offsets into the block's elements
    __shared__ unsigned filed[2];                  // [parity]: elements filed so far
    const unsigned tid = threadIdx.x;
    const std::size_t first = std::size_t(blockIdx.x) * blockDim.x;
    const int* block_in = in + first;
    int* block_out = out + first;
    const unsigned count = n - first < blockDim.x ? unsigned(n - first) : blockDim.x;
    const bool valid = tid < count;
    const unsigned parity = valid ? static_cast<unsigned>(block_in[tid]) & 1u : 1u;
    if (tid < 2)
        filed[tid] = 0;
    // The barrier that orders the counters' reset before the atomics also counts the evens.
    const auto evens = static_cast<unsigned>(__syncthreads_count(valid && parity == 0));
    const unsigned odds_from = (evens + kWarp - 1) / kWarp * kWarp;
    if (valid)
        slots[(parity != 0 ? odds_from : 0) + atomicAdd(&filed[parity], 1u)] = tid;
    __syncthreads();

    // Slots [evens, odds_from) are padding: a warp's 32 slots lie in one list, one path per warp.
    const unsigned slot_end = odds_from + (count - evens);
    for (unsigned slot = tid; slot < slot_end; slot += blockDim.x) {
        if (slot < evens) {
            const unsigned j = slots[slot];
            block_out[j] = static_cast<int>(lesson02::even_path(static_cast<std::uint32_t>(block_in[j])));
        } else if (slot >= odds_from) {
            const unsigned j = slots[slot];
            block_out[j] = static_cast<int>(lesson02::odd_path(static_cast<std::uint32_t>(block_in[j])));
        }
    }
}
