// The SIMT interpreter. Each instruction is executed for all 32 lanes in
// an inner loop; results are written back only for the lanes in the
// execution mask (active path and guard predicate).
//
// Divergence uses a reconvergence stack: a divergent branch parks the
// not-taken lanes on the stack and runs the taken lanes until they reach
// the branch's immediate post-dominator, where the paths are merged again.
#include "exec/scheduling/interpreter.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "exec/arithmetic/arithmetic.hpp"
#include "exec/arithmetic/warp_operations.hpp"
#include "exec/memory/device_heap.hpp"
#include "exec/memory/device_printf.hpp"
#include "exec/memory/memory_access.hpp"
#include "exec/memory/ordering_check.hpp"
#include "exec/scheduling/lanes.hpp"
#include "exec/scheduling/opcode_classes.hpp"
#include "support/demangle.hpp"

namespace cudasim {
namespace {

using ptx::Op;

constexpr uint64_t kBudgetChunk = 1 << 16;
// Nested subroutine calls a warp may make (a GPU's stack, 1 KB a thread by default, holds fewer of
// most functions' frames).
constexpr size_t kMaxCallDepth = 1024;

// After a warp's lanes changed paths (a path popped, lanes exited): whether its run ends here, the
// warp done, or resumed on a path parked past a barrier.
bool run_ends_after_path_change(Warp& w)
{
    if (w.status == Warp::Status::Done)
        return true;
    if (w.active & w.arrived) {
        w.status = Warp::Status::AtBarrier;
        return true;
    }
    return false;
}

}  // namespace

// ---- control flow ----

void Interpreter::pop_path(Warp& w, BlockState& b)
{
    while (!w.stack.empty()) {
        SimtEntry e = w.stack.back();
        w.stack.pop_back();
        if (e.frame >= 0)
            return_from_subroutine(w, b, e);
        uint32_t lanes = e.mask & ~w.exited;
        if (lanes) {
            w.pc = e.pc;
            w.rpc = e.rpc;
            w.active = lanes;
            return;
        }
    }
    w.active = 0;
    w.status = Warp::Status::Done;
}

// Lanes parked at a reconvergence point that is an unconditional ret/exit
// have nothing left to do; they count as exited, so that the common
// `if (i >= n) return; ... __syncthreads();` does not wait for them.
void Interpreter::retire_lanes_waiting_at_exit(Warp& w, const Instr* code)
{
    uint32_t above = w.active;
    for (size_t i = w.stack.size(); i-- > 0;) {
        const SimtEntry& e = w.stack[i];
        uint32_t waiting_here = e.mask & ~above & ~w.exited;
        const Instr& next = code[e.pc];
        if (waiting_here && (next.op == Op::Ret || next.op == Op::Exit) && next.guard == Operand::kNoReg)
            w.exited |= waiting_here;
        above |= e.mask;
    }
}

void Interpreter::exit_lanes(Warp& w, BlockState& b, uint32_t lanes)
{
    w.exited |= lanes;
    w.active &= ~lanes;
    if (w.active == 0)
        pop_path(w, b);
}

void Interpreter::branch(Warp& w, const Instr& in, uint32_t taken)
{
    if (in.guard == Operand::kNoReg) {
        w.pc = in.target;
        return;
    }
    uint32_t not_taken = w.active & ~taken;
    if (not_taken == 0) {
        w.pc = in.target;
    } else if (taken == 0) {
        ++w.pc;
    } else {
        int32_t join = in.reconverge;
        if (join != w.rpc)
            w.stack.push_back({join, w.rpc, w.active});
        // Lanes whose way leads straight to the join wait there, in the join's entry (its mask is the
        // whole path): only the other lanes' path runs. The commonest divergence is of this kind
        // (an `if` without `else`), and a path pushed to be popped at once would be work for nothing.
        // Under a seeded schedule the paths are pushed as before, so that a seed keeps its meaning.
        if (!shuffle_ && in.target == join) {
            w.active = not_taken;
            w.rpc = join;
            ++w.pc;
            return;
        }
        if (!shuffle_ && w.pc + 1 == join) {
            w.active = taken;
            w.rpc = join;
            w.pc = in.target;
            return;
        }
        if (shuffle_ && (shuffle_->next() & 1)) {  // a seeded schedule may run the not-taken lanes first
            w.stack.push_back({in.target, join, taken});
            w.active = not_taken;
            w.rpc = join;
            ++w.pc;
            return;
        }
        w.stack.push_back({w.pc + 1, join, not_taken});
        w.active = taken;
        w.rpc = join;
        w.pc = in.target;
    }
}

// The lanes in `exec` arrive at bar.sync (or bar.red). Returns true if
// the warp must now wait for the rest of the block.
bool Interpreter::arrive_at_barrier(Warp& w, BlockState& b, const Instr& in, uint32_t exec, const Instr* code)
{
    w.arrived |= exec;
    w.barrier_mode = in.mode;
    w.barrier_line = static_cast<int32_t>(in.line);
    if (in.mode != ptx::BarSync) {
        // bar.red d, barrier, [count,] p: the predicate is the last operand.
        const Operand& p = in.ops[in.num_ops - 1];
        w.votes |= exec & (p.kind == Operand::Kind::Imm ? (p.imm ? ~0u : 0u) : predicate_mask(w, p.reg));
        w.barrier_dest = in.ops[0].reg;
    }
    retire_lanes_waiting_at_exit(w, code);
    ++w.pc;
    if (!w.all_live_arrived() && !w.stack.empty() && w.stack.back().rpc == w.rpc) {
        // Other lanes of this warp are on a sibling path: let them run to
        // their barrier (or exit) first; this path resumes after the barrier.
        SimtEntry sibling = w.stack.back();
        w.stack.back() = {w.pc, w.rpc, w.active};
        w.stack.push_back(sibling);
        pop_path(w, b);
        return false;
    }
    w.status = Warp::Status::AtBarrier;
    return true;
}

// Takes a new chunk of the launch's instruction budget (CUDASIM_INSTRUCTION_LIMIT); this is also
// where a warp notices that the launch was stopped. Out of run_with's loop, which must stay small.
// Under a seeded schedule and where the kernel syncs its grid each slice takes its instructions from
// what was taken ahead (start_slice), and reaching zero ends the slice.
bool Interpreter::charge_budget(const Warp& w, const BlockState& b, const Instr& in)
{
    if (shuffle_ || sliced_) {
        budget_left_ = 0;
        return true;
    }
    uint64_t used = launch_.instructions_used.fetch_add(kBudgetChunk);
    if (used >= launch_.instruction_limit)
        budget_exceeded(w, b, in);
    if (launch_.stop.load(std::memory_order_relaxed))
        throw DeviceFault(cudaSuccess, "stopped");
    budget_left_ = kBudgetChunk - 1;
    return false;
}

// A slice's instructions come from a chunk of the budget taken ahead (prepay): slices of a few dozen
// instructions would otherwise each write the launch's counter, which every worker thread shares.
void Interpreter::start_slice(const Warp& w, const BlockState& b, uint64_t instructions)
{
    if (prepaid_ < instructions)
        prepay(w, b, std::max(kBudgetChunk, instructions));
    prepaid_ -= instructions;
    budget_left_ = instructions;
    slice_ = instructions;
}

void Interpreter::end_slice()
{
    run_in_slices_ += slice_ - budget_left_;
    prepaid_ += budget_left_;
    budget_left_ = 0;
}

void Interpreter::prepay(const Warp& w, const BlockState& b, uint64_t instructions)
{
    uint64_t used = launch_.instructions_used.fetch_add(instructions);
    if (used >= launch_.instruction_limit)
        budget_exceeded(w, b, launch_.kernel->code[static_cast<size_t>(w.pc)]);
    if (launch_.stop.load(std::memory_order_relaxed))
        throw DeviceFault(cudaSuccess, "stopped");
    prepaid_ += instructions;
}

void Interpreter::budget_exceeded(const Warp& w, const BlockState& b, const Instr& in)
{
    throw DeviceFault(cudaErrorLaunchTimeout,
                      "kernel " + demangle(launch_.kernel->name) + " exceeded the instruction budget of " +
                          std::to_string(launch_.instruction_limit) +
                          " warp instructions (CUDASIM_INSTRUCTION_LIMIT); block (" + std::to_string(b.ctaid.x) + "," +
                          std::to_string(b.ctaid.y) + "," + std::to_string(b.ctaid.z) + "), warp " +
                          std::to_string(w.index) + ", PTX line " + std::to_string(in.line));
}

// this_grid().sync(): thread 0 of each block adds to a word of the grid
// workspace (an atomic, counted in launch_.grid_arrivals), then reads that word until every block of
// the grid has. A read that cannot see them all yet waits instead: it ends the warp's slice before
// it executes, so that waiting costs no instructions, counters or modelled time.
bool Interpreter::waits_at_grid_sync(const Warp& w, const Instr& in, uint32_t exec) const
{
    if (exec == 0 || w.grid_arrivals == 0)
        return false;
    const Operand& a = in.ops[2];
    const uint64_t address =
        (a.reg == Operand::kNoReg ? 0 : w.reg(a.reg)[std::countr_zero(exec)]) + static_cast<uint64_t>(a.imm);
    return address - launch_.grid_workspace < kGridWorkspaceBytes &&
           launch_.grid_arrivals < launch_.grid.count() * w.grid_arrivals;
}

void Interpreter::trap(const Warp& w, const BlockState& b, const Instr& in, uint32_t exec)
{
    AccessSite s = site(w, b, std::countr_zero(exec), in);
    throw DeviceFault(cudaErrorLaunchFailure, "trap executed in " + describe_thread(s));
}

// ---- the main loop ----

// The warp trace follows one warp of one block: whether it listens is decided here, once per run of
// the warp, so that the loop of every other warp has no test for it.
void Interpreter::run(Warp& w, BlockState& b)
{
    const uint64_t block = b.ctaid.x + uint64_t{launch_.grid.x} * (b.ctaid.y + uint64_t{launch_.grid.y} * b.ctaid.z);
    if (launch_.trace && launch_.trace->follows(block, w.index)) {
        TracedListeners listeners(counters_, *launch_.trace);
        run_with(w, b, listeners);
    } else if (launch_.counting) {
        run_with(w, b, counters_);
    } else {
        ExecutionListener none;  // a launch not counted: no hook left to call
        run_with(w, b, none);
    }
}

template <class Listener>
void Interpreter::run_with(Warp& w, BlockState& b, Listener& listener)
{
    const Instr* code = launch_.kernel->code.data();
    w.status = Warp::Status::Ready;
    for (;;) {
        if (w.pc == w.rpc) {
            pop_path(w, b);
            if (run_ends_after_path_change(w))
                return;
            continue;
        }
        if (const uint32_t run = straight_runs_[static_cast<size_t>(w.pc)]; run > 1 && budget_left_ >= run) {
            // Each instruction of the run executes for the whole path, with its fast path or as a
            // memory access: what the steps below would do for each, without their tests (the run
            // has no guard, no branch and no reconvergence point, and the budget covers it).
            budget_left_ -= run;
            const uint32_t exec = w.active;
            const auto first = static_cast<size_t>(w.pc);
            for (size_t pc = first; pc < first + run; ++pc) {
                listener.on_issue(w, b, code[pc], exec, exec);
                if (const FastPath fast = fast_paths_[pc])
                    fast(w, code[pc], exec);
                else
                    access_memory(w, b, code[pc], exec, listener);
            }
            b.clock += run;  // no instruction of a run reads the clock
            w.pc += static_cast<int32_t>(run);
            continue;
        }
        const Instr& in = code[w.pc];
        if (budget_left_-- == 0 && charge_budget(w, b, in))
            return;  // the end of this warp's slice: it stays Ready, at this instruction
        uint32_t exec = w.active;
        if (in.guard != Operand::kNoReg) {
            uint32_t p = predicate_mask(w, in.guard);
            exec &= in.guard_neg ? ~p : p;
        }
        const Executor executor = executor_of(in.op);
        if (sliced_ && executor == Executor::Load && waits_at_grid_sync(w, in, exec)) {
            // The end of this warp's slice, before the poll: it stays Ready, at this instruction,
            // which did not run (end_slice gives it back with the rest of the slice).
            ++budget_left_;
            return;
        }
        listener.on_issue(w, b, in, w.active, exec);
        uint64_t clk = ++b.clock;
        if (executor == Executor::Arithmetic) {  // most instructions: a predictable branch, not the switch's jump
            if (const FastPath fast = fast_paths_[static_cast<size_t>(w.pc)])
                fast(w, in, exec);
            else
                execute_arithmetic(w, in, exec, clk, *launch_.kernel);
            ++w.pc;
            continue;
        }
        switch (executor) {
        case Executor::Load:
        case Executor::Store:
        case Executor::Atomic:
            access_memory(w, b, in, exec, listener);
            break;
        case Executor::Texture:
            fetch_texture(w, b, in, exec, listener);
            break;
        case Executor::Branch:
            if (in.guard != Operand::kNoReg)
                listener.on_branch(w, in, exec != 0 && (w.active & ~exec) != 0);
            branch(w, in, exec);
            continue;
        case Executor::Barrier:
            if (exec == 0)
                break;  // a barrier no lane executes (its guard false for the whole warp) waits for nothing
            listener.on_barrier(w, in, exec);
            if (arrive_at_barrier(w, b, in, exec, code))
                return;
            continue;
        case Executor::Exit:
            ++w.pc;
            exit_lanes(w, b, exec);
            if (run_ends_after_path_change(w))
                return;
            continue;
        case Executor::Trap:
            if (exec)
                trap(w, b, in, exec);
            break;
        case Executor::Call:
            call(w, b, in, exec);
            break;
        case Executor::Subroutine:
            call_subroutine(w, b, in, exec);
            continue;
        case Executor::WarpSync:
            warp_sync(w, b, in, exec);
            break;
        case Executor::NoEffect:
            if (ordering_ && in.op == Op::Membar)
                for (uint32_t lanes = exec; lanes; lanes &= lanes - 1)
                    ordering::fence(b.ordering, w.index * kWarpSize + static_cast<uint32_t>(std::countr_zero(lanes)),
                                    in.order);
            break;
        case Executor::WarpOperation:
            if (in.op != Op::Activemask)
                check_membermask(w, b, in, exec, in.ops[in.num_ops - 1]);
            listener.on_warp_operation(w, in, exec);
            execute_warp_operation(w, in, exec, clk, *launch_.kernel);
            break;
        case Executor::Arithmetic:
            execute_arithmetic(w, in, exec, clk, *launch_.kernel);
            break;
        }
        ++w.pc;
    }
}

// A load, store or atomic, in a straight run or not (in a run the warp's pc stays at the run's
// start: what a fault reports comes from the instruction itself).
template <class Listener>
void Interpreter::access_memory(Warp& w, BlockState& b, const Instr& in, uint32_t exec, Listener& listener)
{
    switch (executor_of(in.op)) {
    case Executor::Load:
        load(w, b, in, exec, listener);
        break;
    case Executor::Store:
        store(w, b, in, exec, listener);
        break;
    default:
        atomic(w, b, in, exec, listener);
        break;
    }
}

// bar.warp.sync (__syncwarp): the lanes run in step here anyway; for the race check it orders the
// memory accesses of the lanes that take part, those of its mask that execute it.
// Like compute-sanitizer's synccheck: a lane that executes __syncwarp(), a shuffle, a vote, a match
// or a warp reduction must be in its membermask (PTX leaves the result undefined otherwise).
void Interpreter::check_membermask(const Warp& w, const BlockState& b, const Instr& in, uint32_t exec, const Operand& m)
{
    uint32_t outside = 0;
    if (m.kind == Operand::Kind::Imm) {
        outside = exec & ~static_cast<uint32_t>(m.imm);
    } else if (m.kind == Operand::Kind::Reg) {
        const uint64_t* masks = w.reg(m.reg);
        for (uint32_t lanes = exec; lanes; lanes &= lanes - 1) {
            const int l = std::countr_zero(lanes);
            outside |= ((masks[l] >> l) & 1) == 0 ? 1u << l : 0u;
        }
    }
    if (outside)
        invalid_membermask(w, b, in, std::countr_zero(outside), m);
}

void Interpreter::invalid_membermask(const Warp& w, const BlockState& b, const Instr& in, int lane, const Operand& m)
{
    const uint64_t mask = m.kind == Operand::Kind::Imm ? m.imm : w.reg(m.reg)[lane];
    char hex[16];
    std::snprintf(hex, sizeof hex, "0x%08x", static_cast<unsigned>(mask));
    const std::string what = in.op == Op::WarpSync ? "__syncwarp()" : std::string(ptx::op_name(in.op)) + ".sync";
    throw DeviceFault(cudaErrorLaunchFailure, "Invalid membermask: " + what + " with membermask " + hex +
                                                  " executed by lane " + std::to_string(lane) +
                                                  ", which the mask leaves out, in " +
                                                  describe_thread(site(w, b, lane, in)));
}

void Interpreter::warp_sync(Warp& w, BlockState& b, const Instr& in, uint32_t exec)
{
    if (!exec)
        return;
    const Operand& m = in.ops[0];
    check_membermask(w, b, in, exec, m);
    uint32_t mask = m.kind == Operand::Kind::Imm   ? static_cast<uint32_t>(m.imm)
                    : m.kind == Operand::Kind::Reg ? static_cast<uint32_t>(w.reg(m.reg)[std::countr_zero(exec)])
                                                   : ~0u;
    uint32_t lanes = exec & mask;
    if (!lanes)
        return;
    if (w.syncs + 1 == RaceAccess::kSyncs) {
        // More bar.warp.syncs since the last barrier than the shadow records: start afresh, as if
        // there were a barrier (a race across this point goes unnoticed).
        b.new_race_interval();
        w.reset_syncs();
    }
    ++w.syncs;
    for (; lanes; lanes &= lanes - 1)
        w.lane_sync[std::countr_zero(lanes)] = w.syncs;
}

// A call of a recursive function (ptx::Subroutine): the lanes that call it run its body, with the
// registers and local memory of this activation saved first; its SubReturn is where they
// reconverge, and pop_path gives the saved ones back there (return_from_subroutine).
void Interpreter::call_subroutine(Warp& w, BlockState& b, const Instr& in, uint32_t exec)
{
    const ptx::Kernel& k = *launch_.kernel;
    if (in.op != Op::CallSub)
        throw DeviceFault(cudaErrorLaunchFailure, "the end of subroutine reached outside a call in kernel " +
                                                      demangle(k.name) + ", PTX line " + std::to_string(in.line));
    if (exec == 0) {
        ++w.pc;
        return;
    }
    const ptx::SubroutineCall& call = k.subroutine_calls[static_cast<size_t>(in.target)];
    const ptx::Subroutine& sub = k.subroutines[call.subroutine];
    if (exec != w.active)
        throw DeviceFault(cudaErrorLaunchFailure, "a call of " + demangle(sub.name) +
                                                      " that only some of the warp's active lanes make (a predicated "
                                                      "call) is not supported, in kernel " +
                                                      demangle(k.name));
    if (w.calls.size() == kMaxCallDepth)
        throw DeviceFault(cudaErrorIllegalAddress,
                          "call stack overflow: " + std::to_string(kMaxCallDepth) + " nested calls of " +
                              demangle(sub.name) + " in kernel " + demangle(k.name) + ", block (" +
                              std::to_string(b.ctaid.x) + "," + std::to_string(b.ctaid.y) + "," +
                              std::to_string(b.ctaid.z) + "), warp " + std::to_string(w.index) +
                              " (the recursion is too deep, or never ends)");
    CallFrame frame;
    frame.call = static_cast<uint32_t>(in.target);
    frame.registers.assign(w.reg(sub.first_register), w.reg(sub.end_register));
    const uint32_t local_size = sub.end_local - sub.first_local;
    if (local_size > 0)
        for (uint32_t t = 0; t < kWarpSize; ++t) {
            const size_t thread = size_t{w.index} * kWarpSize + t;
            if ((thread + 1) * b.local_bytes > b.local.size())
                break;
            const uint8_t* from = b.local.data() + thread * b.local_bytes + sub.first_local;
            frame.local.insert(frame.local.end(), from, from + local_size);
        }
    // The arguments, read before anything is written: a recursive call passes its own parameters on.
    std::vector<uint64_t> arguments;
    for (const auto& [from, to] : call.arguments)
        arguments.insert(arguments.end(), w.reg(from), w.reg(from) + kWarpSize);
    for (size_t i = 0; i < call.arguments.size(); ++i)
        std::copy(arguments.begin() + static_cast<std::ptrdiff_t>(i * kWarpSize),
                  arguments.begin() + static_cast<std::ptrdiff_t>((i + 1) * kWarpSize),
                  w.reg(call.arguments[i].second));
    w.calls.push_back(std::move(frame));
    w.stack.push_back({w.pc + 1, w.rpc, w.active, static_cast<int32_t>(w.calls.size() - 1)});
    w.rpc = sub.exit;
    w.pc = sub.entry;
}

void Interpreter::return_from_subroutine(Warp& w, BlockState& b, const SimtEntry& e)
{
    const ptx::Kernel& k = *launch_.kernel;
    CallFrame& frame = w.calls.back();
    const ptx::SubroutineCall& call = k.subroutine_calls[frame.call];
    const ptx::Subroutine& sub = k.subroutines[call.subroutine];
    std::vector<uint64_t> results;
    for (const auto& [from, to] : call.results)
        results.insert(results.end(), w.reg(from), w.reg(from) + kWarpSize);
    std::copy(frame.registers.begin(), frame.registers.end(), w.reg(sub.first_register));
    const uint32_t local_size = sub.end_local - sub.first_local;
    for (size_t t = 0; local_size > 0 && (t + 1) * local_size <= frame.local.size(); ++t)
        std::copy_n(frame.local.data() + t * local_size, local_size,
                    b.local.data() + (size_t{w.index} * kWarpSize + t) * b.local_bytes + sub.first_local);
    for (size_t i = 0; i < call.results.size(); ++i) {
        uint64_t* to = w.reg(call.results[i].second);
        for (uint32_t lanes = e.mask; lanes; lanes &= lanes - 1) {
            const int l = std::countr_zero(lanes);
            to[l] = results[i * kWarpSize + static_cast<size_t>(l)];
        }
    }
    w.calls.pop_back();
}

void Interpreter::call(Warp& w, BlockState& b, const Instr& in, uint32_t exec)
{
    Lanes ret{};
    for (uint32_t m = exec; m; m &= m - 1) {
        int l = std::countr_zero(m);
        AccessSite s = site(w, b, l, in);
        auto reader = [&](uint64_t addr, uint32_t size) -> const uint8_t* {
            ResolvedSpace where;
            return memory_.resolve(ptx::Space::Generic, addr, size, false, s, b, where);
        };
        uint64_t p0 = w.reg(in.ops[2].reg)[l];
        uint64_t p1 = in.num_ops > 3 ? w.reg(in.ops[3].reg)[l] : 0;
        if (in.mode == ptx::CallVprintf) {
            // A full FIFO drops the call unformatted: a flood costs no more than counting it.
            if (launch_.printf_bytes_left.load(std::memory_order_relaxed) <= 0) {
                launch_.printf_calls_dropped.fetch_add(1, std::memory_order_relaxed);
                continue;
            }
            std::string text;
            ret[l] = static_cast<uint64_t>(format_device_printf(p0, p1, reader, text));
            const auto bytes = static_cast<int64_t>(text.size());
            if (launch_.printf_bytes_left.fetch_sub(bytes, std::memory_order_relaxed) >= bytes)
                b.printf_output += text;
            else
                launch_.printf_calls_dropped.fetch_add(1, std::memory_order_relaxed);
        } else if (in.mode == ptx::CallMalloc) {
            ret[l] = launch_.heap ? launch_.heap->allocate(p0) : 0;  // NULL when the heap is full
        } else if (in.mode == ptx::CallFree) {
            if (launch_.heap && !launch_.heap->release(p0))
                throw DeviceFault(cudaErrorIllegalAddress, "free(" + hex_address(p0) +
                                                               "): not an address that malloc in a kernel returned "
                                                               "(freed twice, or not the start of a block) in " +
                                                               describe_thread(s));
        } else {
            uint64_t line = in.num_ops > 4 ? w.reg(in.ops[4].reg)[l] : 0;
            uint64_t func = in.num_ops > 5 ? w.reg(in.ops[5].reg)[l] : 0;
            throw DeviceFault(cudaErrorAssert,
                              describe_assertion(p0, p1, line, func, reader) + " in " + describe_thread(s));
        }
    }
    if (in.ops[0].kind == Operand::Kind::Reg)
        write_back(w, in.ops[0], ret, exec);
}

}  // namespace cudasim
