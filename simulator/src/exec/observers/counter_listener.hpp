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
private:
    // What on_issue and follow_round need of each instruction, found once per launch: its issue
    // slots, its role, and the registers it reads (its guard and sources) and those it writes, as
    // sets of bits like Warp::in_flight: the first kInlineWords words here, any others in round_masks_.
    enum class RoundRole : uint8_t {
        Issue,       // a load, atomic or call: waits for a value in flight it reads
        EndOfBlock,  // a branch, barrier or exit
        Compute,     // arithmetic or a warp operation: its result in flight if a source is
        Other,
    };
    static constexpr size_t kInlineWords = 2;  // most kernels have fewer than 128 registers
    struct RoundOperands {
        uint64_t read[kInlineWords] = {};
        uint64_t written[kInlineWords] = {};
        uint32_t more = 0;  // in round_masks_: the further words read, then those written
        RoundRole role = RoundRole::Other;
        uint8_t issue_slots = 1;  // issue_cost
    };
    // Register r's bit in Warp::in_flight and in the sets above, counted across the words.
    static uint32_t round_bit(uint32_t r) { return r - ptx::SrCarry; }
    bool reads_more_in_flight(const Warp& w, const RoundOperands& o) const;
    void mark_more_written(Warp& w, const RoundOperands& o, bool in_round) const;

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
        const RoundOperands& o = round_operands_[static_cast<size_t>(&in - code_)];
        ++counts_.warp_instructions;
        counts_.issue_slots += o.issue_slots;
        if (w.round_open)
            follow_round(w, o);
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
                start_round(w, in, from);
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
                    start_round(w, in, kRoundL2);  // the old value comes back from L2
            }
            break;
        }
    }
    void on_phase_end(std::span<Warp> warps);

    // The words of Warp::in_flight for `kernel`: a bit for each register an instruction can write (the
    // special registers before ptx::SrCarry cannot be written, so none of them is ever in flight).
    static size_t round_words(const ptx::Kernel& kernel)
    {
        return std::max<size_t>(kInlineWords, (kernel.num_regs - ptx::SrCarry + 63) / 64);
    }

    // Atomic updates per global address (timing model: updates of one address serialise).
    const AddressTally& atomic_targets() const { return atomic_targets_; }

private:
    // The open round trip meets the instruction `o` describes. ptxas issues the independent loads
    // of a basic block before the instructions that use loaded values, so a use does not end the
    // round by itself: the round ends at a load, atomic or branch that depends on a value still in
    // flight (it cannot issue before the value arrives), or at the end of a basic block (a branch,
    // barrier or exit) after some instruction used one. Loads in between join the round. A value
    // computed from one in flight is in flight too.
    void follow_round(Warp& w, const RoundOperands& o) const
    {
        // Words at a fixed place, not registers' entries looked up in a table: a load from an entry
        // that the instruction before stored to, at an address of its own table, would wait for it.
        uint64_t* const in_flight = w.in_flight.data();
        bool reads = ((o.read[0] & in_flight[0]) | (o.read[1] & in_flight[1])) != 0;
        if (round_words_ > kInlineWords) [[unlikely]]
            reads |= reads_more_in_flight(w, o);
        const auto mark_written = [&](bool in_round) {
            for (size_t i = 0; i < kInlineWords; ++i)
                in_flight[i] = in_round ? in_flight[i] | o.written[i] : in_flight[i] & ~o.written[i];
            if (round_words_ > kInlineWords) [[unlikely]]
                mark_more_written(w, o, in_round);
        };
        switch (o.role) {
        case RoundRole::Issue:
            if (reads)
                w.end_round();
            else
                mark_written(false);  // a global load marks it again (start_round)
            return;
        case RoundRole::EndOfBlock:
            if (reads || w.round_used)
                w.end_round();
            return;
        case RoundRole::Compute:
            mark_written(reads);
            break;
        case RoundRole::Other:
            break;
        }
        w.round_used |= reads;
    }
    // A request whose sectors this listener touched already in this launch needs no look at the
    // record: each is one this launch touched (SectorTouch::Again), as no other launch runs
    // meanwhile. What it touched is kept for a few recent windows of kWindowSectors sectors (2 KiB,
    // aligned), as bits, each window in the slot its number selects: a block's requests (a
    // reduction's loads and stores of its own slice) mostly fall in windows its earlier ones did.
    static constexpr uint64_t kWindowSectors = 64;
    static constexpr size_t kWindowSlots = 4;
    struct TouchedWindow {
        uint64_t window = ~uint64_t{0};  // none yet
        uint64_t bits = 0;
    };
    bool touched_already(uint64_t window, uint64_t bits) const
    {
        const TouchedWindow& slot = touched_windows_[window % kWindowSlots];
        return slot.window == window && (bits & ~slot.bits) == 0;
    }
    void remember_touched(uint64_t window, uint64_t bits)
    {
        TouchedWindow& slot = touched_windows_[window % kWindowSlots];
        slot.bits = slot.window == window ? slot.bits | bits : bits;
        slot.window = window;
    }
    // Whether the sectors of `access` lie in one window: then `window` is its number (sector /
    // kWindowSectors) and `bits` its sectors there; else `bits` is 0.
    static bool sectors_in_one_window(const MemoryEvent& access, uint64_t& window, uint64_t& bits);
    // Counts one warp-wide access; for global memory, returns where its farthest sector came from
    // (a RoundSource).
    uint8_t count_memory(bool write, const MemoryEvent& access);
    uint8_t count_global(bool write, const MemoryEvent& access);
    void count_shared(bool write, const MemoryEvent& access);
    // Records the sectors of a request that are not one run, and says how many are `distinct`.
    RunTouches touch_scattered(const MemoryEvent& access, uint64_t& distinct);
    // Records the `count` consecutive sectors from `address` as touched by this launch.
    RunTouches touch_sectors(uint64_t address, uint64_t count);
    // The allocation whose footprint records the sectors of [address, end), or null.
    const Allocation* footprint_holding(uint64_t address, uint64_t end);
    // A global load (or an atomic that returns the old value), `in`, opens the warp's round trip, or
    // joins the open one: what it writes is in flight.
    void start_round(Warp& w, const ptx::Instr& in, uint8_t source)
    {
        const RoundOperands& o = round_operands_[static_cast<size_t>(&in - code_)];
        uint64_t* const in_flight = w.in_flight.data();
        for (size_t i = 0; i < kInlineWords; ++i)
            in_flight[i] |= o.written[i];
        if (round_words_ > kInlineWords) [[unlikely]]
            mark_more_written(w, o, true);
        w.round_open = true;
        w.round_source = std::max(w.round_source, source);
    }
    void count_atomic(const ptx::Instr& in, const ptx::Operand& value, const MemoryEvent& access);

    void describe_round_operands(const ptx::Kernel& kernel);

    Counts& counts_;
    const ptx::Instr* code_;
    std::vector<RoundOperands> round_operands_;  // by instruction
    std::vector<uint64_t> round_masks_;
    size_t round_words_ = kInlineWords;  // words of a set of registers (round_words)
    uint64_t epoch_;
    bool one_worker_;
    const Allocation* footprint_allocation_ = nullptr;  // the allocation touch_sectors used last
    TouchedWindow touched_windows_[kWindowSlots];
    AddressTally atomic_targets_;
};

}  // namespace cudasim
