// Per-launch performance counters of the CUDA CPU simulator.
//
//   #include <cudasim/counters.hpp>
//   kernel<<<grid, block>>>(...);
//   cudasim::LaunchCounters c = cudasim::last_launch_counters();
//
// Setting CUDASIM_COUNTERS=1 also prints them to stderr after every launch.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cudasim {

struct Counts {
    uint64_t warp_instructions = 0;     // instructions issued, one per warp
    uint64_t thread_instructions = 0;   // summed over the lanes that executed them
    uint64_t branches = 0;              // conditional branches issued
    uint64_t divergent_branches = 0;    // ... whose lanes went both ways
    uint64_t barriers = 0;              // bar.sync issued (per warp)
    uint64_t global_load_requests = 0;  // warp-level global load instructions
    uint64_t global_store_requests = 0;
    uint64_t global_wide_load_requests = 0;  // ... of them 16 bytes per lane (ld.v4.b32, ld.v2.b64, ...)
    uint64_t global_load_sectors = 0;        // distinct 32-byte sectors they touched
    uint64_t global_store_sectors = 0;
    uint64_t shared_load_requests = 0;
    uint64_t shared_store_requests = 0;
    uint64_t shared_bank_conflicts = 0;  // extra shared-memory wavefronts (32 banks x 4 B)
    uint64_t atomics = 0;                // atom/red instructions issued
    uint64_t shuffles = 0;               // shfl.sync issued (per warp)
    uint64_t warp_reductions = 0;        // redux.sync issued (per warp; sm_80 and later)
    // What the timing model (README, "Timing model") needs beyond the profiler's counts:
    uint64_t issue_slots = 0;        // warp instructions weighted by their cost in machine instructions
    uint64_t atomic_operations = 0;  // atomic updates that reach memory: one per lane, or one per warp
                                     // for a constant added to one address (the compiler aggregates it)
    uint64_t dram_sectors = 0;       // distinct 32-byte global sectors the launch touched
    uint64_t dram_rounds = 0;        // memory round trips on each block's critical path that fetched
    uint64_t l2_rounds = 0;          // ... a sector from DRAM / one the previous launch left in L2 /
    uint64_t cached_rounds = 0;      // ... only sectors this launch had touched already

    Counts& operator+=(const Counts& o);
};

struct LaunchCounters {
    std::string kernel;
    uint32_t grid[3] = {0, 0, 0};
    uint32_t block[3] = {0, 0, 0};
    Counts counts;
    uint64_t atomics_on_hottest_address = 0;  // atomic updates to the address that received the most
    int resident_blocks_per_sm = 0;           // blocks an SM holds at once (occupancy, capped by the grid)
    int resident_warps_per_sm = 0;
    double theoretical_occupancy = 0;  // resident warps the occupancy limits allow / 64
    double modelled_milliseconds = 0;  // see README, "Timing model"
    bool counted = true;               // false for a launch run with counting off (set_counting): no counts, no time
    // The model's terms, in milliseconds: what bounds the kernel.
    double issue_milliseconds = 0;    // instruction issue and load/store pipe
    double latency_milliseconds = 0;  // memory round trips that occupancy does not hide
    double dram_milliseconds = 0;     // bytes to and from device memory
    double atomic_milliseconds = 0;   // atomics serialised on one address

    // Average fraction of a warp's 32 lanes active per issued instruction.
    double warp_execution_efficiency() const;
    // Fraction of conditional branches that did not diverge.
    double branch_efficiency() const;
};

// Counters of the most recent kernel launch (all zero before the first).
LaunchCounters last_launch_counters();

// Kernel launches run so far by this process.
uint64_t launches_so_far();
// Counters of every launch after the first `launches`, oldest first (at most the last 1024).
std::vector<LaunchCounters> launches_since(uint64_t launches);

// Number of CPU threads that execute blocks (CUDASIM_THREADS, else cores).
unsigned simulator_threads();

// Whether the launches that follow are counted (on at start): their counters, their modelled time
// and the sectors they leave in the modelled L2. A launch run with counting off computes the same
// results under the same checks (bounds, races, initcheck, membermask) in about half to four fifths
// of the time, but adds no modelled time (events around it measure nothing of it) and its
// LaunchCounters say counted = false: for work that measures nothing, such as a grader's
// correctness cases, a kernel that syncs its grid included.
void set_counting(bool on);
bool counting();

}  // namespace cudasim
