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

void modelKernel(LaunchCounters& c, const LaunchShape& shape)
{
    const Counts& n = c.counts;
    const double blocks = static_cast<double>(std::max<uint64_t>(shape.blocks, 1));
    const double sms = std::min(kSms, blocks);
    const int limit = std::max(shape.blocksPerSmLimit, 1);
    c.residentBlocksPerSm = static_cast<int>(std::min<double>(limit, std::ceil(blocks / kSms)));
    c.residentWarpsPerSm = c.residentBlocksPerSm * shape.warpsPerBlock;
    c.theoreticalOccupancy = std::min(1.0, limit * shape.warpsPerBlock / double(device_model::kMaxWarpsPerSm));

    // Issue and the load/store pipe: every SM in use works through its share.
    const double schedulers = std::min<double>(kSchedulersPerSm, c.residentWarpsPerSm);
    const double issue = static_cast<double>(n.issueSlots) / (sms * schedulers * kClockHz);
    const double wavefronts = static_cast<double>(n.globalLoadSectors + n.globalStoreSectors) / kSectorsPerCyclePerSm +
                              static_cast<double>(n.sharedLoadRequests + n.sharedStoreRequests + n.sharedBankConflicts);
    const double pipe = issue + wavefronts / (sms * kClockHz);
    // Latency: each block waits for the round trips on its critical path, and for being started; an
    // SM overlaps the blocks it holds at once.
    const double latency =
        (static_cast<double>(n.dramRounds) * kDramRoundSeconds + static_cast<double>(n.l2Rounds) * kL2RoundSeconds +
         static_cast<double>(n.cachedRounds) * kCachedRoundSeconds + blocks * kBlockSeconds) /
        (sms * c.residentBlocksPerSm);
    const double dram = 32.0 * static_cast<double>(n.dramSectors) / kDramBytesPerSecond;
    const double atomic = static_cast<double>(c.atomicsOnHottestAddress) * kAtomicSeconds;

    c.issueMilliseconds = 1e3 * pipe;
    c.latencyMilliseconds = 1e3 * latency;
    c.dramMilliseconds = 1e3 * dram;
    c.atomicMilliseconds = 1e3 * atomic;
    // The three overlap imperfectly: a kernel near two limits is slower than either alone.
    const double combined = std::sqrt(pipe * pipe + latency * latency + dram * dram);
    c.modelledMilliseconds = kLaunchOverheadMs + 1e3 * std::max(atomic, combined);
}

double modelCopyMilliseconds(uint64_t bytes, cudaMemcpyKind kind)
{
    double b = static_cast<double>(bytes);
    if (kind == cudaMemcpyDeviceToDevice)
        return kCopyLatencyMs + 1e3 * 2 * b / kDramBytesPerSecond;
    if (kind == cudaMemcpyHostToHost)
        return 0;
    return kCopyLatencyMs + 1e3 * b / kPcieBytesPerSecond;
}

}  // namespace cudasim
