#pragma once
/// @file kernel_profile.hpp
/// @brief What the CPU simulator counted for each kernel a piece of work launched: the
/// profiler's counters (instructions, branches, memory requests and sectors, bank conflicts,
/// atomics) and the timing model's figures (occupancy, modelled time). Simulator builds only.

#include <cuda_runtime_api.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace course {

/// The shuffles one warp reduction (redux.sync) stands for: the five steps of a warp's tree.
inline constexpr std::uint64_t kShufflesPerWarpReduction = 5;

/// The counters of one kernel launch, or the sums over several (see simulator/README.md,
/// "Counters" and "Timing model").
struct KernelProfile {
    std::string kernel;  ///< demangled name (of the first launch, for sums)
    std::uint64_t launches = 0;
    std::uint64_t blocks = 0;               ///< blocks launched
    std::uint64_t warps = 0;                ///< warps launched
    std::uint64_t warp_instructions = 0;    ///< PTX instructions issued, one per warp
    std::uint64_t thread_instructions = 0;  ///< ... counted once per lane that executed them
    std::uint64_t issue_slots = 0;          ///< warp instructions weighted by their machine cost
    std::uint64_t branches = 0;             ///< conditional branches issued
    std::uint64_t divergent_branches = 0;   ///< ... whose lanes went both ways
    std::uint64_t barriers = 0;             ///< bar.sync (__syncthreads) issued, one per warp
    std::uint64_t global_load_requests = 0;
    std::uint64_t global_load_sectors = 0;        ///< distinct 32-byte sectors per request, summed
    std::uint64_t global_wide_load_requests = 0;  ///< load requests of 16 bytes per lane (int4, float4)
    std::uint64_t global_store_requests = 0;
    std::uint64_t global_store_sectors = 0;
    std::uint64_t dram_sectors = 0;        ///< distinct sectors each launch touched
    std::uint64_t memory_round_trips = 0;  ///< global-load round trips on each block's critical path, summed
    std::uint64_t shared_requests = 0;
    std::uint64_t bank_conflicts = 0;   ///< extra shared-memory wavefronts
    std::uint64_t shuffles = 0;         ///< shfl.sync issued, one per warp
    std::uint64_t warp_reductions = 0;  ///< redux.sync issued (__reduce_add_sync, sm_80+)
    std::uint64_t atomic_instructions = 0;
    std::uint64_t atomic_updates = 0;  ///< updates that reach memory
    std::uint64_t updates_on_busiest_address = 0;
    int resident_warps_per_sm = 0;     ///< of the launch with the most warps
    double theoretical_occupancy = 0;  ///< ditto
    double modelled_ms = 0;            ///< the timing model's estimate, launch overheads included

    [[nodiscard]] double instructions_per_warp() const;
    [[nodiscard]] double issue_slots_per_warp() const;
    [[nodiscard]] double warp_execution_efficiency() const;  ///< active lanes per instruction / 32
    [[nodiscard]] double branch_efficiency() const;          ///< branches that did not diverge
    [[nodiscard]] double sectors_per_load_request() const;
    [[nodiscard]] double conflicts_per_shared_request() const;
    [[nodiscard]] double wide_load_share() const;  ///< 16-byte load requests / load requests
    [[nodiscard]] double shared_requests_per_warp() const;
    [[nodiscard]] double barriers_per_warp() const;
    /// (shuffles + kShufflesPerWarpReduction x warp reductions) / warps
    [[nodiscard]] double warp_exchanges_per_warp() const;
    [[nodiscard]] double atomic_updates_per_warp() const;
    /// Global-load bytes (32 per sector) per warp. When a kernel's loads are independent of each
    /// other (no address depends on a loaded value), a GPU's compiler issues them all before their
    /// first use, and this is how many bytes each warp has in flight at once.
    [[nodiscard]] double global_load_bytes_per_warp() const;
    /// Global-load round trips on a block's critical path, per block, in the order of the PTX
    /// (which often puts each use right after its load, where ptxas would move the loads together).
    [[nodiscard]] double memory_round_trips_per_block() const;
    /// Resident warps / 64, averaged over a device of `multiprocessors` SMs during the first wave:
    /// one block on one SM of many is a few percent, however full that SM is.
    [[nodiscard]] double achieved_occupancy(int multiprocessors) const;

    KernelProfile& operator+=(const KernelProfile& other);
};

/// Whether the CPU simulator counts the launches made in this scope (cudasim::set_counting): not
/// counted, a launch gives the same results under the same checks in half to four fifths of the
/// time, but no counters and no modelled time. A grader's correctness runs measure nothing and are
/// not counted (grading::run_case); profile() and timed runs (run_interleaved) count whatever
/// scope they are in. Scopes nest; each gives back the setting it found. On a GPU, nothing.
class SimulatorCounting {
public:
    explicit SimulatorCounting(bool on);
    ~SimulatorCounting();
    SimulatorCounting(const SimulatorCounting&) = delete;
    SimulatorCounting& operator=(const SimulatorCounting&) = delete;

private:
    bool was_on_ = true;
};

/// Runs `work` on `stream` from a cold L2, waits for it, and returns the counters of the kernels it
/// launched, summed. Throws std::logic_error in a GPU build, and std::runtime_error if `work` launched none.
[[nodiscard]] KernelProfile profile(const std::function<void(cudaStream_t)>& work, cudaStream_t stream);

}  // namespace course
