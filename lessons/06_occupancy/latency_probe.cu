// Lesson 06: the latency one load from DRAM takes, measured with a pointer chase (each load's
// address is the previous load's value, so no two are ever in flight together). The demo puts it
// into Little's law.
//
//   ./course run 06          # prints the measured latency before the table

#include "latency_probe.hpp"

#include "course/cuda_check.hpp"
#include "course/data.hpp"
#include "course/device_buffer.hpp"

#include <algorithm>
#include <numeric>
#include <random>

namespace lesson06 {
namespace {

__global__ void chase(const unsigned* next, unsigned start, int hops, unsigned* end)
{
    unsigned at = start;
    for (int i = 0; i < hops; ++i)
        at = next[at];
    *end = at;  // the result is used, so the loads cannot be dropped
}

/// Times one walk of `hops` loads from `at`, and moves `at` to where the walk ended: the next walk
/// goes on along the cycle, over nodes no walk has touched (none of them can be in L2).
float time_chase(const course::DeviceBuffer<unsigned>& next, unsigned& at, int hops)
{
    course::DeviceBuffer<unsigned> end(1);
    cudaEvent_t start = nullptr;
    cudaEvent_t stop = nullptr;
    COURSE_CUDA_CHECK(cudaEventCreate(&start));
    COURSE_CUDA_CHECK(cudaEventCreate(&stop));
    COURSE_CUDA_CHECK(cudaEventRecord(start));
    chase<<<1, 1>>>(next.data(), at, hops, end.data());
    COURSE_CHECK_LAUNCH();
    COURSE_CUDA_CHECK(cudaEventRecord(stop));
    COURSE_CUDA_CHECK(cudaEventSynchronize(stop));
    float milliseconds = 0;
    COURSE_CUDA_CHECK(cudaEventElapsedTime(&milliseconds, start, stop));
    COURSE_CUDA_CHECK(cudaEventDestroy(start));
    COURSE_CUDA_CHECK(cudaEventDestroy(stop));
    at = end.download()[0];
    return milliseconds;
}

}  // namespace

LatencyProbe measure_dram_latency(std::uint64_t seed)
{
    // 256 MiB, five times an H100's L2: a random walk over it almost never hits in the cache. The
    // nodes are 256 bytes apart so that no two share a cache line or a sector's neighbourhood.
    constexpr std::size_t kWords = std::size_t{1} << 26;
    constexpr std::size_t kSpacing = 64;
    constexpr std::size_t kNodes = kWords / kSpacing;
    LatencyProbe probe;
    probe.bytes = kWords * sizeof(unsigned);
    probe.hops = 1 << 16;

    std::vector<unsigned> order(kNodes);
    std::iota(order.begin(), order.end(), 0u);
    std::shuffle(order.begin() + 1, order.end(), std::mt19937_64(seed));
    std::vector<unsigned> next(kWords, 0);
    for (std::size_t i = 0; i < kNodes; ++i)
        next[order[i] * kSpacing] = unsigned(order[(i + 1) % kNodes] * kSpacing);
    const course::DeviceBuffer<unsigned> device_next{std::span<const unsigned>(next)};
    // The upload went through L2 and left part of the array there: overwrite L2 with other data.
    int device = 0;
    int l2_bytes = 0;
    COURSE_CUDA_CHECK(cudaGetDevice(&device));
    COURSE_CUDA_CHECK(cudaDeviceGetAttribute(&l2_bytes, cudaDevAttrL2CacheSize, device));
    course::DeviceBuffer<unsigned char> flush(2 * std::size_t(l2_bytes));
    flush.fill_bytes(1);

    // A short walk first (module load, clocks), then timed walks and walks 1/8 as long: the
    // difference is the cost of the extra loads alone, without the launch. Every walk continues
    // the previous one, so 3 * (1 + 1/8) * 65536 + 1024 of the 2^20 nodes are visited once each.
    unsigned at = 0;
    (void)time_chase(device_next, at, 1024);
    const int few = probe.hops / 8;
    float best_long = 1e30f;
    float best_short = 1e30f;
    for (int round = 0; round < 3; ++round) {
        best_short = std::min(best_short, time_chase(device_next, at, few));
        best_long = std::min(best_long, time_chase(device_next, at, probe.hops));
    }
    probe.nanoseconds = 1e6 * double(best_long - best_short) / double(probe.hops - few);
    return probe;
}

}  // namespace lesson06
