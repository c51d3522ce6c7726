// What the interpreter reads from the opcode table (ptx/opcodes.def): which executor runs an
// opcode, and its issue slots (the Cost column).
#pragma once

#include <cstdint>

#include "ptx/ir.hpp"

namespace cudasim {

// The Executor column: the part of the interpreter that runs the opcode (Interpreter::run).
enum class Executor : uint8_t {
    Load,
    Store,
    Atomic,
    Texture,
    Branch,
    Barrier,
    WarpSync,
    Exit,
    Trap,
    Call,
    Subroutine,
    NoEffect,
    WarpOperation,
    Arithmetic,
};

// The Cost column: what ptxas makes of the instruction on sm_90. Most PTX instructions map to one
// machine instruction; the exceptions are the ones that change which of two kernels is faster.
enum class CostClass : uint8_t { One, SpecialFunction, Division };

inline constexpr Executor kExecutors[] = {
#define CUDASIM_OPCODE(name, mnemonic, spelling, cost, executor) Executor::executor,
#include "ptx/opcodes.def"
};

inline constexpr CostClass kCostClasses[] = {
#define CUDASIM_OPCODE(name, mnemonic, spelling, cost, executor) CostClass::cost,
#include "ptx/opcodes.def"
};

constexpr Executor executor_of(ptx::Op op)
{
    return kExecutors[static_cast<int>(op)];
}

// Issue slots of one PTX instruction: about how many machine instructions (or issue cycles of a
// slower pipe) ptxas turns it into on sm_90.
inline uint32_t issue_cost(const ptx::Instr& in)
{
    switch (kCostClasses[static_cast<int>(in.op)]) {
    case CostClass::Division:
        // No integer divider: a reciprocal estimate and refinement, ~18 instructions at 32 bits and
        // a call of a longer routine at 64 bits. Floating-point division is a shorter sequence.
        if (ptx::is_float(in.type))
            return 8;
        return ptx::type_bytes(in.type) == 8 ? 64 : 18;
    case CostClass::SpecialFunction:
        return 4;  // the special-function unit serves a quarter of a warp per cycle
    default:
        return 1;
    }
}

}  // namespace cudasim
