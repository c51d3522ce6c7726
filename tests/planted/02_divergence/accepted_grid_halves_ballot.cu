// plants: nothing wrong: right uniform kernels written another way. index_parity_uniform splits the
//   grid in halves: the first half of the threads take the even indices, the second half the odd
//   ones (each half a whole number of warps). value_parity_uniform files its elements with no
//   atomics: ballots and population counts give each element its place in a stable list, the
//   per-warp counts added up by a shuffle scan in warp 0. The grader must pass it, speed included.
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
    // One list of offsets from the block's first element: evens at [0, evens), odds from the next
    // multiple of 32 on, so that no warp's 32 slots straddle the two.
    __shared__ unsigned slots[kMaxBlock + kWarp];
    __shared__ unsigned even_before[kMaxBlock / kWarp];  // per warp: the evens of the warps before it
    __shared__ unsigned odd_before[kMaxBlock / kWarp];
    __shared__ unsigned totals[2];
    const unsigned tid = threadIdx.x;
    const unsigned lane = tid % kWarp;
    const unsigned warp = tid / kWarp;
    const unsigned warps = blockDim.x / kWarp;
    const std::size_t first = std::size_t(blockIdx.x) * blockDim.x;

    // Every lane votes (blocks are whole warps); lanes past n are neither even nor odd.
    const bool valid = first + tid < n;
    const bool is_even = valid && in[first + tid] % 2 == 0;
    const bool is_odd = valid && !is_even;
    const unsigned even_votes = __ballot_sync(kAllLanes, is_even);
    const unsigned odd_votes = __ballot_sync(kAllLanes, is_odd);
    if (lane == 0) {
        even_before[warp] = __popc(even_votes);
        odd_before[warp] = __popc(odd_votes);
    }
    __syncthreads();

    // Warp 0 turns the per-warp counts into exclusive prefix sums (at most 32 warps).
    if (warp == 0) {
        const unsigned own_even = lane < warps ? even_before[lane] : 0;
        const unsigned own_odd = lane < warps ? odd_before[lane] : 0;
        unsigned even_sum = own_even;
        unsigned odd_sum = own_odd;
        for (unsigned distance = 1; distance < kWarp; distance *= 2) {
            const unsigned even_up = __shfl_up_sync(kAllLanes, even_sum, distance);
            const unsigned odd_up = __shfl_up_sync(kAllLanes, odd_sum, distance);
            if (lane >= distance) {
                even_sum += even_up;
                odd_sum += odd_up;
            }
        }
        if (lane < warps) {
            even_before[lane] = even_sum - own_even;
            odd_before[lane] = odd_sum - own_odd;
        }
        if (lane == kWarp - 1) {
            totals[0] = even_sum;
            totals[1] = odd_sum;
        }
    }
    __syncthreads();

    const unsigned evens = totals[0];
    const unsigned odds = totals[1];
    const unsigned even_slots = (evens + kWarp - 1) / kWarp * kWarp;
    const unsigned lanes_below = (1u << lane) - 1;
    if (is_even)
        slots[even_before[warp] + __popc(even_votes & lanes_below)] = tid;
    if (is_odd)
        slots[even_slots + odd_before[warp] + __popc(odd_votes & lanes_below)] = tid;
    __syncthreads();

    // A warp's slots are 32 consecutive ones starting at a multiple of 32: all on one side of
    // even_slots, so one heavy path per warp.
    for (unsigned slot = tid; slot < even_slots + odds; slot += blockDim.x) {
        if (slot < even_slots) {
            if (slot < evens) {
                const std::size_t i = first + slots[slot];
                out[i] = static_cast<int>(lesson02::even_path(static_cast<std::uint32_t>(in[i])));
            }
        } else {
            const std::size_t i = first + slots[slot];
            out[i] = static_cast<int>(lesson02::odd_path(static_cast<std::uint32_t>(in[i])));
        }
    }
}
