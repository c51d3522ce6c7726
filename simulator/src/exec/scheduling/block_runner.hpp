// Runs one thread block: its warps take turns until each reaches the
// block's barrier or exits, like coroutines that yield at bar.sync (in
// order, or in slices under a seeded schedule: exec/scheduling/schedule.hpp, and where
// the kernel syncs its grid).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "exec/scheduling/block_state.hpp"
#include "exec/scheduling/interpreter.hpp"
#include "exec/scheduling/schedule.hpp"
#include "exec/scheduling/warp.hpp"

namespace cudasim {

class BlockRunner {
public:
    BlockRunner(LaunchContext& launch, Counts& counts);

    // Executes block number `linearIndex` of the grid. Printf output is left
    // in state().printfOutput. Throws DeviceFault.
    void run(uint64_t linearIndex);
    // The blocks of a kernel that syncs its grid run side by side instead: begin() sets block `linearIndex`
    // up, and each advance() gives every ready warp one slice of instructions (exec/scheduling/launcher.cpp
    // takes the blocks in turn). Returns true once every warp of the block has exited.
    void begin(uint64_t linearIndex);
    bool advance();
    BlockState& state() { return block_; }
    Interpreter& interpreter() { return interpreter_; }

private:
    void fillConstantRegisters();
    void startWarps(uint64_t linearIndex);
    void checkBarrier() const;
    void finishBarrierReduction();
    void runShuffled(ScheduleRandom& random);
    bool releaseBarrier();

    LaunchContext& launch_;
    Interpreter interpreter_;
    BlockState block_;
    std::vector<Warp> warps_;
    std::vector<uint64_t> registers_;
    std::vector<Warp*> readyWarps_;         // runShuffled's choice, kept to spare an allocation per interval
    std::optional<ScheduleRandom> random_;  // the block's random stream under a seeded schedule
};

}  // namespace cudasim
