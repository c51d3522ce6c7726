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
#include "exec/scheduling/register_file.hpp"
#include "exec/scheduling/schedule.hpp"
#include "exec/scheduling/warp.hpp"

namespace cudasim {

class BlockRunner {
public:
    BlockRunner(LaunchContext& launch, Counts& counts);

    // Executes block number `linear_index` of the grid. Printf output is left
    // in state().printf_output. Throws DeviceFault.
    void run(uint64_t linear_index);
    // The blocks of a kernel that syncs its grid run side by side instead: begin() sets block `linear_index`
    // up, and each advance() gives every ready warp one slice of instructions (exec/scheduling/launcher.cpp
    // takes the blocks in turn). Returns true once every warp of the block has exited.
    void begin(uint64_t linear_index);
    bool advance();
    BlockState& state() { return block_; }
    Interpreter& interpreter() { return interpreter_; }

private:
    void fill_constant_registers();
    void start_warps(uint64_t linear_index);
    void check_barrier() const;
    void finish_barrier_reduction();
    void run_shuffled(ScheduleRandom& random);
    bool release_barrier();

    LaunchContext& launch_;
    Interpreter interpreter_;
    BlockState block_;
    std::vector<Warp> warps_;
    RegisterFile registers_;
    std::vector<Warp*> ready_warps_;        // run_shuffled's choice, kept to spare an allocation per interval
    std::optional<ScheduleRandom> random_;  // the block's random stream under a seeded schedule
};

}  // namespace cudasim
