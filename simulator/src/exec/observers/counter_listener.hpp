// The counters of include/cudasim/counters.hpp, and the memory round trips and DRAM sectors the
// timing model needs, kept as an execution listener (exec/observers/listener.hpp). Every warp runs with it,
// so the hook called at every instruction is inline.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cudasim/counters.hpp>
#include <span>
#include <vector>

#include "exec/memory/device_memory.hpp"
#include "exec/observers/address_tally.hpp"
#include "exec/observers/listener.hpp"
#include "exec/observers/sector_footprint.hpp"
#include "exec/scheduling/block_state.hpp"
#include "exec/scheduling/opcode_classes.hpp"
#include "exec/scheduling/warp.hpp"
#include "ptx/ir.hpp"

namespace cudasim {

class CounterListener : public ExecutionListener {
public:
    // `kernel`: the launch's; `epoch`: the launch's number, for the sectors it touches
    // (exec/observers/sector_footprint.hpp); `one_worker`: no other worker thread runs the launch
    // (LaunchContext::one_worker).
    CounterListener(Counts& counts, const ptx::Kernel& kernel, uint64_t epoch, bool one_worker)
        : counts_(counts), code_(kernel.code.data()), epoch_(epoch), one_worker_(one_worker)
    {
        describe_round_operands(kernel);
    }

    void on_issue(Warp& w, const BlockState&, const ptx::Instr& in, uint32_t, uint32_t exec)
    {
        ++counts_.warp_instructions;
        counts_.issue_slots += issue_cost(in);
        if (w.round_open)
            follow_round(w, in);
        counts_.thread_instructions += static_cast<uint64_t>(std::popcount(exec));
    }
    void on_branch(const Warp&, const ptx::Instr&, bool divergent)
    {
        ++counts_.branches;
        if (divergent)
            ++counts_.divergent_branches;
    }
    void on_barrier(const Warp&, const ptx::Instr&, uint32_t) { ++counts_.barriers; }
    void on_warp_operation(const Warp&, const ptx::Instr& in, uint32_t)
    {
        if (in.op == ptx::Op::Shfl)
            ++counts_.shuffles;
        else if (in.op == ptx::Op::Redux)
            ++counts_.warp_reductions;
    }
    void on_atomic(const Warp&, const ptx::Instr&, uint32_t) { ++counts_.atomics; }
    // Inline, so that the switch folds away in each caller, which passes a constant kind.
    void on_memory_access(Warp& w, const ptx::Instr& in, const MemoryEvent& access)
    {
        switch (access.kind) {
        case MemoryEvent::Kind::Load: {
            const uint8_t from = count_memory(false, access);
            if (access.where == ResolvedSpace::Global)
                start_round(w, in.ops[0], from);
            break;
        }
        case MemoryEvent::Kind::Store:
            count_memory(true, access);
            break;
        case MemoryEvent::Kind::Atomic:
            if (access.where == ResolvedSpace::Global) {
                const bool is_red = in.op == ptx::Op::Red;
                count_atomic(in, is_red ? in.ops[2] : in.ops[3], access);
                if (!is_red)
                    start_round(w, in.ops[0], kRoundL2);  // the old value comes back from L2
            }
            break;
        }
    }
    void on_phase_end(std::span<Warp> warps);

    // Atomic updates per global address (timing model: updates of one address serialise).
    const AddressTally& atomic_targets() const { return atomic_targets_; }

private:
    // The open round trip meets `in`. ptxas issues the independent loads of a basic block before
    // the instructions that use loaded values, so a use does not end the round by itself: the
    // round ends at a load, atomic or branch that depends on a value still in flight (it cannot
    // issue before the value arrives), or at the end of a basic block (a branch, barrier or exit)
    // after some instruction used one. Loads in between join the round. A value computed from one
    // in flight is in flight too.
    void follow_round(Warp& w, const ptx::Instr& in) const
    {
        const RoundOperands& o = round_operands_[static_cast<size_t>(&in - code_)];
        const uint32_t* reads_from = round_registers_.data() + o.first;
        const uint32_t* writes_to = reads_from + o.reads;
        bool reads = false;
        for (uint32_t i = 0; i < o.reads; ++i)  // no early exit: a few registers, and no branch
            reads |= w.load_round[reads_from[i]] == w.round;
        const auto mark_destination = [&](uint32_t round) {
            for (uint32_t i = 0; i < o.writes; ++i)
                w.load_round[writes_to[i]] = round;
        };
        switch (o.role) {
        case RoundRole::Issue:
            if (reads)
                w.end_round();
            else
                mark_destination(0);  // a global load marks it again (start_round)
            return;
        case RoundRole::EndOfBlock:
            if (reads || w.round_used)
                w.end_round();
            return;
        case RoundRole::Compute:
            mark_destination(reads ? w.round : 0);
            break;
        case RoundRole::Other:
            break;
        }
        w.round_used |= reads;
    }
    // Counts one warp-wide access; for global memory, returns where its farthest sector came from
    // (a RoundSource).
    uint8_t count_memory(bool write, const MemoryEvent& access);
    // Records the `count` consecutive sectors from `address` as touched by this launch.
    RunTouches touch_sectors(uint64_t address, uint64_t count);
    // The allocation whose footprint records the sectors of [address, end), or null.
    const Allocation* footprint_holding(uint64_t address, uint64_t end);
    // A global load into `destination` opens the warp's round trip, or joins the open one.
    void start_round(Warp& w, const ptx::Operand& destination, uint8_t source)
    {
        if (destination.kind == ptx::Operand::Kind::Reg)
            w.load_round[destination.reg] = w.round;
        else if (destination.kind == ptx::Operand::Kind::Vec)
            for (int i = 0; i < destination.count; ++i)
                if (destination.vec[i] != ptx::Operand::kNoReg)
                    w.load_round[destination.vec[i]] = w.round;
        w.round_open = true;
        w.round_source = std::max(w.round_source, source);
    }
    void count_atomic(const ptx::Instr& in, const ptx::Operand& value, const MemoryEvent& access);

    // What follow_round needs of each instruction, found once per launch: its role, and the
    // registers it reads (its guard and sources) and the destinations it writes, in round_registers_.
    enum class RoundRole : uint8_t {
        Issue,       // a load, atomic or call: waits for a value in flight it reads
        EndOfBlock,  // a branch, barrier or exit
        Compute,     // arithmetic or a warp operation: its result in flight if a source is
        Other,
    };
    struct RoundOperands {
        uint32_t first = 0;  // its registers' index in round_registers_: the reads, then the writes
        uint8_t reads = 0;
        uint8_t writes = 0;
        RoundRole role = RoundRole::Other;
    };
    void describe_round_operands(const ptx::Kernel& kernel);

    Counts& counts_;
    const ptx::Instr* code_;
    std::vector<RoundOperands> round_operands_;  // by instruction
    std::vector<uint32_t> round_registers_;
    uint64_t epoch_;
    bool one_worker_;
    const Allocation* footprint_allocation_ = nullptr;  // the allocation touch_sectors used last
    AddressTally atomic_targets_;
};

}  // namespace cudasim
