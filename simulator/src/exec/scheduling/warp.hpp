// Architectural state of one warp: SIMT stack and register file.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <vector>

namespace cudasim {

constexpr int kWarpSize = 32;

// Where a memory round trip's farthest sector came from (timing model).
enum RoundSource : uint8_t { kRoundCached, kRoundL2, kRoundDram };

// One pending path of a divergent warp: run `mask` from `pc` until `rpc`.
struct SimtEntry {
    int32_t pc;
    int32_t rpc;
    uint32_t mask;
    int32_t frame = -1;  // a subroutine call's return: its frame in Warp::calls
};

// A call of a subroutine (a recursive function, ptx::Subroutine) in progress: what the call
// overwrote, given back on the return.
struct CallFrame {
    uint32_t call = 0;                // the ptx::SubroutineCall
    std::vector<uint64_t> registers;  // the subroutine's registers, every lane
    std::vector<uint8_t> local;       // its local memory, every thread of the warp
};

struct Warp {
    enum class Status { Ready, AtBarrier, Done };

    uint32_t index = 0;       // warp number within the block
    uint32_t valid_mask = 0;  // lanes that are real threads of the block
    uint32_t exited = 0;      // lanes that executed ret/exit
    uint32_t active = 0;      // lanes of the path being executed
    int32_t pc = 0;
    int32_t rpc = -1;           // where the current path rejoins its parent
    uint32_t arrived = 0;       // lanes waiting at the pending barrier
    uint32_t votes = 0;         // bar.red: arrived lanes whose predicate is true
    uint8_t barrier_mode = 0;   // ptx::BarMode of the pending barrier
    uint32_t barrier_dest = 0;  // bar.red: destination register
    int32_t barrier_line = 0;
    Status status = Status::Ready;
    std::vector<CallFrame> calls;  // subroutine calls in progress, innermost last
    uint32_t grid_arrivals = 0;    // grid.sync(): this warp's atomics on the grid workspace
    // Race check: bar.warp.sync executed by this warp since the block's last barrier, and for each
    // lane the count after the last one it took part in.
    uint32_t syncs = 0;
    uint32_t lane_sync[kWarpSize] = {};
    void reset_syncs()
    {
        if (syncs == 0)
            return;  // the common case: no __syncwarp since the last barrier
        syncs = 0;
        std::fill(std::begin(lane_sync), std::end(lane_sync), 0u);
    }
    std::vector<SimtEntry> stack;
    uint64_t* regs = nullptr;  // num_regs x 32 lanes, register-major

    // Memory round trips, for the timing model, kept by the counter listener
    // (exec/observers/counter_listener.hpp). A register written by a global load is in flight until
    // an instruction reads it: that instruction waits for the memory, which ends the round (every
    // value has arrived then). Loads issued before it overlap in one round trip.
    std::vector<uint64_t> in_flight;  // a bit per register (CounterListener::round_bit)
    bool round_open = false;
    bool round_used = false;        // an instruction read a value of the open round
    uint8_t round_source = 0;       // the farthest any load of the round went: a kRound* index
    uint32_t phase_rounds[3] = {};  // rounds since the last barrier, by source

    uint64_t* reg(uint32_t r) { return regs + size_t{r} * kWarpSize; }
    const uint64_t* reg(uint32_t r) const { return regs + size_t{r} * kWarpSize; }
    uint32_t live() const { return valid_mask & ~exited; }
    bool all_live_arrived() const { return (arrived & live()) == live(); }
    void end_round()
    {
        ++phase_rounds[round_source];
        for (uint64_t& word : in_flight)
            word = 0;
        round_open = false;
        round_used = false;
        round_source = kRoundCached;
    }
};

}  // namespace cudasim
