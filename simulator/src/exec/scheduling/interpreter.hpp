// Executes the decoded instructions of one warp, all 32 lanes at a time.
#pragma once

#include <cstdint>
#include <cudasim/counters.hpp>
#include <vector>

#include "exec/arithmetic/fast_paths.hpp"
#include "exec/memory/memory_access.hpp"
#include "exec/observers/counter_listener.hpp"
#include "exec/observers/listener.hpp"
#include "exec/observers/warp_trace.hpp"
#include "exec/scheduling/block_state.hpp"
#include "exec/scheduling/launch_context.hpp"
#include "exec/scheduling/schedule.hpp"
#include "exec/scheduling/straight_runs.hpp"
#include "exec/scheduling/warp.hpp"

namespace cudasim {

// The listeners of the one warp the warp trace follows; every other warp has the counters alone.
using TracedListeners = ListenerPair<CounterListener, WarpTrace>;

class Interpreter {
public:
    Interpreter(LaunchContext& launch, Counts& counts)
        : launch_(launch), counters_(counts, *launch.kernel, launch.epoch, launch.one_worker),
          memory_(launch.params, launch.kernel->param_bytes), sliced_(launch.grid_workspace != 0),
          race_check_(launch.race_check), init_check_(launch.init_check), ordering_(launch.ordering),
          fast_paths_(fast_paths_of(launch.kernel->code)),
          straight_runs_(straight_runs_of(*launch.kernel, fast_paths_, !sliced_))
    {
    }

    // Runs `warp` until it reaches a barrier (status AtBarrier) or all its
    // threads have exited (status Done), or, under a seeded schedule or where the
    // kernel syncs its grid, until its slice of instructions is spent (status
    // stays Ready). Throws DeviceFault.
    void run(Warp& warp, BlockState& block);

    // Under a seeded schedule (exec/scheduling/schedule.hpp): the block's random stream, or null for the
    // in-order schedule; then (there, and where the kernel syncs its grid) the length of the next slice,
    // charged to the instruction budget.
    void shuffle_with(ScheduleRandom* random) { shuffle_ = random; }
    void start_slice(const Warp& w, const BlockState& b, uint64_t instructions);
    // After run() of a slice: what it ran is added to instructions_run_in_slices(), and what it left
    // unspent goes back to the budget taken ahead.
    void end_slice();
    // The instructions of the slices ended so far, counted or not: a round of a grid's blocks that
    // runs none can never get past grid.sync() (exec/scheduling/launcher.cpp).
    uint64_t instructions_run_in_slices() const { return run_in_slices_; }

    // The listener every warp has: the counters, with the atomic updates per address.
    CounterListener& counters() { return counters_; }

private:
    template <class Listener>
    void run_with(Warp& w, BlockState& b, Listener& listener);
    // The rare paths out of the loop of run_with: a new chunk of the instruction budget, and trap.
    // Returns true when the warp's slice is over instead (seeded schedule, a kernel that syncs its grid).
    [[gnu::noinline]] bool charge_budget(const Warp& w, const BlockState& b, const ptx::Instr& in);
    void prepay(const Warp& w, const BlockState& b, uint64_t instructions);
    [[noreturn, gnu::cold, gnu::noinline]] void budget_exceeded(const Warp& w, const BlockState& b,
                                                                const ptx::Instr& in);
    bool waits_at_grid_sync(const Warp& w, const ptx::Instr& in, uint32_t exec) const;
    [[noreturn, gnu::cold, gnu::noinline]] void trap(const Warp& w, const BlockState& b, const ptx::Instr& in,
                                                     uint32_t exec);
    void branch(Warp& w, const ptx::Instr& in, uint32_t exec);
    template <class Listener>
    void access_memory(Warp& w, BlockState& b, const ptx::Instr& in, uint32_t exec, Listener& listener);
    bool arrive_at_barrier(Warp& w, BlockState& b, const ptx::Instr& in, uint32_t exec, const ptx::Instr* code);
    void exit_lanes(Warp& w, BlockState& b, uint32_t lanes);
    void retire_lanes_waiting_at_exit(Warp& w, const ptx::Instr* code);
    void pop_path(Warp& w, BlockState& b);
    void call_subroutine(Warp& w, BlockState& b, const ptx::Instr& in, uint32_t exec);
    void return_from_subroutine(Warp& w, BlockState& b, const SimtEntry& e);
    // In memory_operations.cpp, for the two sets of listeners run() chooses between.
    template <class Listener>
    void load(Warp& w, BlockState& b, const ptx::Instr& in, uint32_t exec, Listener& listener);
    template <class Listener>
    void store(Warp& w, BlockState& b, const ptx::Instr& in, uint32_t exec, Listener& listener);
    template <class Listener>
    void atomic(Warp& w, BlockState& b, const ptx::Instr& in, uint32_t exec, Listener& listener);
    bool add_to_one_address(Warp& w, BlockState& b, const ptx::Instr& in, uint32_t exec, const uint64_t* addrs,
                            const uint64_t* values, uint64_t* result, ResolvedSpace& where);
    // In texture_fetch.cpp: tex.1d (tex1Dfetch).
    template <class Listener>
    void fetch_texture(Warp& w, BlockState& b, const ptx::Instr& in, uint32_t exec, Listener& listener);
    void call(Warp& w, BlockState& b, const ptx::Instr& in, uint32_t exec);
    void warp_sync(Warp& w, BlockState& b, const ptx::Instr& in, uint32_t exec);
    void check_membermask(const Warp& w, const BlockState& b, const ptx::Instr& in, uint32_t exec,
                          const ptx::Operand& mask);
    [[noreturn, gnu::cold, gnu::noinline]] void
    invalid_membermask(const Warp& w, const BlockState& b, const ptx::Instr& in, int lane, const ptx::Operand& mask);
    // Race check of a warp's shared-memory reads or atomics at `addrs` (in.space addresses), `stride`
    // apart where they are a whole warp's line (LaneAddresses::stride).
    void check_shared_lanes(Warp& w, BlockState& b, const ptx::Instr& in, const uint64_t* addrs, uint32_t exec,
                            uint32_t size, int64_t stride, bool atomic);
    void check_reads_written(Warp& w, BlockState& b, const ptx::Instr& in, const uint64_t* addrs, uint32_t exec,
                             uint32_t size, uint64_t lowest, uint64_t highest);
    void mark_written(const uint64_t* addrs, uint32_t exec, uint32_t size, uint64_t lowest, uint64_t highest,
                      bool gapless);
    void check_global_reads(Warp& w, BlockState& b, const ptx::Instr& in, const uint64_t* addrs, uint32_t exec,
                            uint32_t size);
    void order_loads(const Warp& w, BlockState& b, const ptx::Instr& in, const uint64_t* addrs, uint32_t exec,
                     uint32_t size, uint64_t lowest, uint64_t highest);
    void order_stores(const Warp& w, BlockState& b, const ptx::Instr& in, const uint64_t* addrs, uint32_t exec,
                      uint32_t size);
    uint32_t pc_of(const ptx::Instr& in) const { return static_cast<uint32_t>(&in - launch_.kernel->code.data()); }

    AccessSite site(const Warp& w, const BlockState& b, int lane, const ptx::Instr& in) const
    {
        return {&launch_, &b, &w, lane, in.line, &in};
    }

    LaunchContext& launch_;
    CounterListener counters_;
    MemoryAccess memory_;
    uint64_t budget_left_ = 0;  // instructions until charge_budget, or until the slice ends
    uint64_t prepaid_ = 0;      // instructions taken from the launch's budget for slices not yet started
    uint64_t slice_ = 0;        // the length of the slice under way
    uint64_t run_in_slices_ = 0;
    ScheduleRandom* shuffle_ = nullptr;
    bool sliced_;  // warps run a slice at a time even in order (a kernel that syncs its grid)
    bool race_check_;
    bool init_check_;
    OrderingCheck* ordering_;           // the ordering check across blocks, or none
    std::vector<FastPath> fast_paths_;  // by instruction: its fast path, or null (exec/arithmetic/fast_paths.hpp)
    // By instruction: the length of the straight run from it (exec/scheduling/straight_runs.hpp).
    std::vector<uint32_t> straight_runs_;
};

}  // namespace cudasim
