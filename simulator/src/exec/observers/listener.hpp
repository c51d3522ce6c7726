// What the interpreter reports about the warps it runs, to those that keep account of it: the
// counters with the timing model's round trips (exec/observers/counter_listener.hpp) and the warp trace
// (exec/observers/warp_trace.hpp). A listener is a class with the hooks of ExecutionListener; the interpreter
// takes it as a template argument, so that each call is resolved at compile time and inlined, and
// the hooks a listener leaves out cost nothing. Interpreter::run chooses the listeners once per run
// of a warp.
#pragma once

#include <cstdint>
#include <span>

#include "exec/memory/memory_access.hpp"
#include "exec/scheduling/block_state.hpp"
#include "exec/scheduling/warp.hpp"
#include "ptx/ir.hpp"

namespace cudasim {

// A warp's load, store or atomic (atom, red) that reached memory.
struct MemoryEvent {
    enum class Kind : uint8_t { Load, Store, Atomic };
    Kind kind;
    ResolvedSpace where;        // where the accesses landed (the last lane's, if resolved lane by lane)
    const uint64_t* addresses;  // per lane, in the instruction's state space
    uint32_t lanes;             // the lanes that accessed memory
    uint32_t bytes;             // per lane
    // For a whole warp whose lane l accesses addresses[0] + l * stride (LaneAddresses::stride in
    // memory_operations.cpp): that stride; 0 when the lanes follow no such line, or it is unknown.
    int64_t stride = 0;
};

// The hooks, each of which does nothing: a listener derives from this class and defines (hides)
// those it needs. They are not virtual; listeners are passed by their own type.
class ExecutionListener {
public:
    // The instruction issues for `active`, the lanes of the warp's path; `exec` are those its guard
    // lets run. Called before it executes, and before the instruction budget is charged.
    void on_issue(Warp&, const BlockState&, const ptx::Instr&, uint32_t /*active*/, uint32_t /*exec*/) {}
    // A conditional branch; `divergent` when its lanes go both ways.
    void on_branch(const Warp&, const ptx::Instr&, bool /*divergent*/) {}
    // The lanes `exec` arrive at bar.sync or bar.red.
    void on_barrier(const Warp&, const ptx::Instr&, uint32_t /*exec*/) {}
    // shfl, vote, activemask, redux or match, before it executes.
    void on_warp_operation(const Warp&, const ptx::Instr&, uint32_t /*exec*/) {}
    // atom or red with at least one lane in `exec`, before it touches memory.
    void on_atomic(const Warp&, const ptx::Instr&, uint32_t /*exec*/) {}
    // A load, store or atomic with at least one lane, after it moved its data.
    void on_memory_access(Warp&, const ptx::Instr&, const MemoryEvent&) {}
    // Every warp of the block waits at a barrier or has exited: an interval between barriers ends.
    // Called by the block runner on the listener every warp has (Interpreter::counters).
    void on_phase_end(std::span<Warp> /*warps*/) {}
};

// Two listeners as one: each hook calls the first's, then the second's.
template <class First, class Second>
class ListenerPair {
public:
    ListenerPair(First& first, Second& second) : first_(first), second_(second) {}

    void on_issue(Warp& w, const BlockState& b, const ptx::Instr& in, uint32_t active, uint32_t exec)
    {
        first_.on_issue(w, b, in, active, exec);
        second_.on_issue(w, b, in, active, exec);
    }
    void on_branch(const Warp& w, const ptx::Instr& in, bool divergent)
    {
        first_.on_branch(w, in, divergent);
        second_.on_branch(w, in, divergent);
    }
    void on_barrier(const Warp& w, const ptx::Instr& in, uint32_t exec)
    {
        first_.on_barrier(w, in, exec);
        second_.on_barrier(w, in, exec);
    }
    void on_warp_operation(const Warp& w, const ptx::Instr& in, uint32_t exec)
    {
        first_.on_warp_operation(w, in, exec);
        second_.on_warp_operation(w, in, exec);
    }
    void on_atomic(const Warp& w, const ptx::Instr& in, uint32_t exec)
    {
        first_.on_atomic(w, in, exec);
        second_.on_atomic(w, in, exec);
    }
    void on_memory_access(Warp& w, const ptx::Instr& in, const MemoryEvent& access)
    {
        first_.on_memory_access(w, in, access);
        second_.on_memory_access(w, in, access);
    }
    void on_phase_end(std::span<Warp> warps)
    {
        first_.on_phase_end(warps);
        second_.on_phase_end(warps);
    }

private:
    First& first_;
    Second& second_;
};

}  // namespace cudasim
