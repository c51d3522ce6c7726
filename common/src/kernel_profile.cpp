#include "course/kernel_profile.hpp"

#include "course/backend.hpp"
#include "course/cuda_check.hpp"
#include "course/device_buffer.hpp"

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <vector>

#if COURSE_ON_SIMULATOR
#include <cudasim/counters.hpp>
#endif

namespace course {
namespace {

double ratio(std::uint64_t part, std::uint64_t whole)
{
    return whole == 0 ? 0.0 : double(part) / double(whole);
}

#if COURSE_ON_SIMULATOR
/// Writes more bytes than L2 holds, so that the profiled work starts from a cold cache, as the
/// graders' GPU timings do (the simulator's model keeps the previous launch's data in L2).
void evict_l2(cudaStream_t stream)
{
    static const auto buffer = [] {
        int l2_bytes = 0;
        COURSE_CUDA_CHECK(cudaDeviceGetAttribute(&l2_bytes, cudaDevAttrL2CacheSize, 0));
        return DeviceBuffer<unsigned char>(2 * std::size_t(l2_bytes));
    }();
    COURSE_CUDA_CHECK(cudaMemsetAsync(buffer.data(), 0, buffer.size(), stream));
}

KernelProfile from_counters(const cudasim::LaunchCounters& launch)
{
    const auto& n = launch.counts;
    KernelProfile p;
    p.kernel = launch.kernel;
    p.launches = 1;
    const std::uint64_t threads = std::uint64_t{launch.block[0]} * launch.block[1] * launch.block[2];
    p.blocks = std::uint64_t{launch.grid[0]} * launch.grid[1] * launch.grid[2];
    p.warps = p.blocks * ((threads + 31) / 32);
    p.warp_instructions = n.warp_instructions;
    p.thread_instructions = n.thread_instructions;
    p.issue_slots = n.issue_slots;
    p.branches = n.branches;
    p.divergent_branches = n.divergent_branches;
    p.barriers = n.barriers;
    p.global_load_requests = n.global_load_requests;
    p.global_load_sectors = n.global_load_sectors;
    p.global_wide_load_requests = n.global_wide_load_requests;
    p.global_store_requests = n.global_store_requests;
    p.global_store_sectors = n.global_store_sectors;
    p.dram_sectors = n.dram_sectors;
    p.memory_round_trips = n.dram_rounds + n.l2_rounds + n.cached_rounds;
    p.shared_requests = n.shared_load_requests + n.shared_store_requests;
    p.bank_conflicts = n.shared_bank_conflicts;
    p.shuffles = n.shuffles;
    p.warp_reductions = n.warp_reductions;
    p.atomic_instructions = n.atomics;
    p.atomic_updates = n.atomic_operations;
    p.updates_on_busiest_address = launch.atomics_on_hottest_address;
    p.resident_warps_per_sm = launch.resident_warps_per_sm;
    p.theoretical_occupancy = launch.theoretical_occupancy;
    p.modelled_ms = launch.modelled_milliseconds;
    return p;
}
#endif

}  // namespace

double KernelProfile::instructions_per_warp() const
{
    return ratio(warp_instructions, warps);
}
double KernelProfile::issue_slots_per_warp() const
{
    return ratio(issue_slots, warps);
}
double KernelProfile::warp_execution_efficiency() const
{
    return ratio(thread_instructions, 32 * warp_instructions);
}
double KernelProfile::branch_efficiency() const
{
    return branches == 0 ? 1.0 : 1.0 - ratio(divergent_branches, branches);
}
double KernelProfile::sectors_per_load_request() const
{
    return ratio(global_load_sectors, global_load_requests);
}
double KernelProfile::conflicts_per_shared_request() const
{
    return ratio(bank_conflicts, shared_requests);
}
double KernelProfile::wide_load_share() const
{
    return ratio(global_wide_load_requests, global_load_requests);
}
double KernelProfile::shared_requests_per_warp() const
{
    return ratio(shared_requests, warps);
}
double KernelProfile::barriers_per_warp() const
{
    return ratio(barriers, warps);
}
double KernelProfile::warp_exchanges_per_warp() const
{
    // A redux.sync (nvcc emits one for a warp's shuffle tree of ints on sm_80 and later) does the work
    // of the five shuffles of that tree.
    return ratio(shuffles + kShufflesPerWarpReduction * warp_reductions, warps);
}
double KernelProfile::atomic_updates_per_warp() const
{
    return ratio(atomic_updates, warps);
}
double KernelProfile::global_load_bytes_per_warp() const
{
    return 32.0 * ratio(global_load_sectors, warps);
}
double KernelProfile::memory_round_trips_per_block() const
{
    return ratio(memory_round_trips, blocks);
}
double KernelProfile::achieved_occupancy(int multiprocessors) const
{
    if (launches == 0 || multiprocessors <= 0)
        return 0;
    const double warps_per_launch = double(warps) / double(launches);
    const double device_slots = 64.0 * multiprocessors;
    return std::min(warps_per_launch, double(resident_warps_per_sm) * multiprocessors) / device_slots;
}

KernelProfile& KernelProfile::operator+=(const KernelProfile& o)
{
    if (kernel.empty())
        kernel = o.kernel;
    launches += o.launches;
    blocks += o.blocks;
    warps += o.warps;
    warp_instructions += o.warp_instructions;
    thread_instructions += o.thread_instructions;
    issue_slots += o.issue_slots;
    branches += o.branches;
    divergent_branches += o.divergent_branches;
    barriers += o.barriers;
    global_load_requests += o.global_load_requests;
    global_load_sectors += o.global_load_sectors;
    global_wide_load_requests += o.global_wide_load_requests;
    global_store_requests += o.global_store_requests;
    global_store_sectors += o.global_store_sectors;
    dram_sectors += o.dram_sectors;
    memory_round_trips += o.memory_round_trips;
    shared_requests += o.shared_requests;
    bank_conflicts += o.bank_conflicts;
    shuffles += o.shuffles;
    warp_reductions += o.warp_reductions;
    atomic_instructions += o.atomic_instructions;
    atomic_updates += o.atomic_updates;
    updates_on_busiest_address = std::max(updates_on_busiest_address, o.updates_on_busiest_address);
    if (o.warps > 0 && (resident_warps_per_sm == 0 || o.warps >= warps - o.warps)) {
        resident_warps_per_sm = o.resident_warps_per_sm;
        theoretical_occupancy = o.theoretical_occupancy;
    }
    modelled_ms += o.modelled_ms;
    return *this;
}

SimulatorCounting::SimulatorCounting(bool on)
{
#if COURSE_ON_SIMULATOR
    was_on_ = cudasim::counting();
    cudasim::set_counting(on);
#else
    (void)on;
#endif
}

SimulatorCounting::~SimulatorCounting()
{
#if COURSE_ON_SIMULATOR
    cudasim::set_counting(was_on_);
#endif
}

KernelProfile profile(const std::function<void(cudaStream_t)>& work, cudaStream_t stream)
{
#if COURSE_ON_SIMULATOR
    const SimulatorCounting counted(true);
    evict_l2(stream);
    const std::uint64_t before = cudasim::launches_so_far();
    work(stream);
    COURSE_CUDA_CHECK(cudaStreamSynchronize(stream));
    KernelProfile sum;
    for (const auto& launch : cudasim::launches_since(before))
        sum += from_counters(launch);
    if (sum.launches == 0)
        throw std::runtime_error("profile: the work launched no kernel");
    return sum;
#else
    (void)work;
    (void)stream;
    throw std::logic_error("kernel counters come from the CPU simulator: build with the \"sim\" preset");
#endif
}

}  // namespace course
