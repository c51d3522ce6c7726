// Issue slots of one PTX instruction: about how many machine instructions (or issue cycles of a
// slower pipe) ptxas turns it into on sm_90. Most PTX instructions map to one; the exceptions
// below are the ones that change which of two kernels is faster.
#pragma once

#include <cstdint>

#include "ptx/ir.hpp"

namespace cudasim {

inline uint32_t issueCost(const ptx::Instr& in)
{
    using ptx::Op;
    switch (in.op) {
    case Op::Div:
    case Op::Rem:
        // No integer divider: a reciprocal estimate and refinement, ~18 instructions at 32 bits and
        // a call of a longer routine at 64 bits. Floating-point division is a shorter sequence.
        if (ptx::isFloat(in.type))
            return 8;
        return ptx::typeBytes(in.type) == 8 ? 64 : 18;
    case Op::Sin:
    case Op::Cos:
    case Op::Ex2:
    case Op::Lg2:
    case Op::Rcp:
    case Op::Sqrt:
    case Op::Rsqrt:
    case Op::Tanh:
        return 4;  // the special-function unit serves a quarter of a warp per cycle
    default:
        return 1;
    }
}

}  // namespace cudasim
