#include "timing/timing_model.hpp"

#include <algorithm>
#include <cmath>

#include "exec/scheduling/device_model.hpp"

namespace cudasim {
namespace {

// A modelled H100 SXM. Clock, bandwidth and latencies were fitted to the course's kernels measured
// on an H100 80GB HBM3 (docs/measurements/timing_model_calibration.md).
constexpr double kSms = device_model::kMultiprocessors;
constexpr double kSchedulersPerSm = 4;  // one warp instruction each per cycle
constexpr double kClockHz = 1.755e9;
constexpr double kSectorsPerCyclePerSm = 4;     // L1: 128 bytes per cycle
constexpr double kDramBytesPerSecond = 3.0e12;  // what a device-to-device copy reaches
constexpr double kDramRoundSeconds = 422e-9;    // a round trip that fetches from DRAM
constexpr double kL2RoundSeconds = 170e-9;      // one served by L2 (data the previous launch left)
constexpr double kCachedRoundSeconds = 60e-9;   // one to data this launch touched already
constexpr double kAtomicSeconds = 0.732e-9;     // one update of one address at L2
constexpr double kBlockSeconds = 181e-9;        // starting and retiring a block on an SM
constexpr double kLaunchOverheadMs = 0.002;
constexpr double kPcieBytesPerSecond = 25e9;
constexpr double kCopyLatencyMs = 0.005;

}  // namespace

void model_kernel(LaunchCounters& c, const LaunchShape& shape)
{
    const Counts& n = c.counts;
    const double blocks = static_cast<double>(std::max<uint64_t>(shape.blocks, 1));
    const double sms = std::min(kSms, blocks);
    const int limit = std::max(shape.blocks_per_sm_limit, 1);
    c.resident_blocks_per_sm = static_cast<int>(std::min<double>(limit, std::ceil(blocks / kSms)));
    c.resident_warps_per_sm = c.resident_blocks_per_sm * shape.warps_per_block;
    c.theoretical_occupancy = std::min(1.0, limit * shape.warps_per_block / double(device_model::kMaxWarpsPerSm));

    // Issue and the load/store pipe: every SM in use works through its share.
    const double schedulers = std::min<double>(kSchedulersPerSm, c.resident_warps_per_sm);
    const double issue = static_cast<double>(n.issue_slots) / (sms * schedulers * kClockHz);
    const double wavefronts =
        static_cast<double>(n.global_load_sectors + n.global_store_sectors) / kSectorsPerCyclePerSm +
        static_cast<double>(n.shared_load_requests + n.shared_store_requests + n.shared_bank_conflicts);
    const double pipe = issue + wavefronts / (sms * kClockHz);
    // Latency: each block waits for the round trips on its critical path, and for being started; an
    // SM overlaps the blocks it holds at once.
    const double latency =
        (static_cast<double>(n.dram_rounds) * kDramRoundSeconds + static_cast<double>(n.l2_rounds) * kL2RoundSeconds +
         static_cast<double>(n.cached_rounds) * kCachedRoundSeconds + blocks * kBlockSeconds) /
        (sms * c.resident_blocks_per_sm);
    const double dram = 32.0 * static_cast<double>(n.dram_sectors) / kDramBytesPerSecond;
    const double atomic = static_cast<double>(c.atomics_on_hottest_address) * kAtomicSeconds;

    c.issue_milliseconds = 1e3 * pipe;
    c.latency_milliseconds = 1e3 * latency;
    c.dram_milliseconds = 1e3 * dram;
    c.atomic_milliseconds = 1e3 * atomic;
    // The three overlap imperfectly: a kernel near two limits is slower than either alone.
    const double combined = std::sqrt(pipe * pipe + latency * latency + dram * dram);
    c.modelled_milliseconds = kLaunchOverheadMs + 1e3 * std::max(atomic, combined);
}

double model_copy_milliseconds(uint64_t bytes, cudaMemcpyKind kind)
{
    double b = static_cast<double>(bytes);
    if (kind == cudaMemcpyDeviceToDevice)
        return kCopyLatencyMs + 1e3 * 2 * b / kDramBytesPerSecond;
    if (kind == cudaMemcpyHostToHost)
        return 0;
    return kCopyLatencyMs + 1e3 * b / kPcieBytesPerSecond;
}

}  // namespace cudasim
