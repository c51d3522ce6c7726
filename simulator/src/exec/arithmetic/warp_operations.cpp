// Instructions that exchange data between the lanes of a warp: shuffles,
// votes, reductions and matches.
#include "exec/arithmetic/warp_operations.hpp"

#include <algorithm>
#include <bit>

#include "exec/arithmetic/alu.hpp"
#include "exec/arithmetic/arithmetic.hpp"
#include "exec/scheduling/lanes.hpp"

namespace cudasim {

using ptx::Op;
using ptx::Type;

namespace {

// The lane that `lane` of a shfl in mode Mode reads (PTX ISA, shfl.sync), from its b (the source
// lane, offset or xor mask) and its c (the clamp in bits 0-4, the segment mask in bits 8-12), and
// whether it may: a lane that may not reads its own value.
template <uint8_t Mode>
int shuffle_source(int lane, uint64_t b, uint64_t c, bool& valid)
{
    const auto bval = static_cast<int32_t>(b & 0x1f);
    const auto cval = static_cast<int32_t>(c & 0x1f);
    const auto segmask = static_cast<int32_t>((c >> 8) & 0x1f);
    const int32_t max_lane = (lane & segmask) | (cval & ~segmask);
    int32_t j;
    if constexpr (Mode == ptx::ShflUp) {
        j = lane - bval;
        valid = j >= max_lane;
    } else if constexpr (Mode == ptx::ShflDown) {
        j = lane + bval;
        valid = j <= max_lane;
    } else if constexpr (Mode == ptx::ShflBfly) {
        j = lane ^ bval;
        valid = j <= max_lane;
    } else {
        j = (lane & segmask) | (bval & ~segmask);
        valid = j <= max_lane;
    }
    return valid ? j : lane;
}

// Every lane's shuffled value `d` and validity `p`. Most shuffles give every lane the same b and c
// (an offset and a width, `__shfl_down_sync(mask, v, 16)`): then they are read once, not per lane.
template <uint8_t Mode>
void shuffle_lanes(const uint64_t* a, const uint64_t* bv, const uint64_t* cv, uint64_t* d, uint64_t* p)
{
    uint64_t differ = 0;
    for (int lane = 0; lane < kWarpSize; ++lane)
        differ |= (bv[lane] ^ bv[0]) | (cv[lane] ^ cv[0]);
    const auto one = [&](int lane, uint64_t b, uint64_t c) {
        bool valid;
        d[lane] = a[shuffle_source<Mode>(lane, b, c, valid)];
        p[lane] = valid ? 1 : 0;
    };
    if (differ == 0) {
        const uint64_t b = bv[0], c = cv[0];
        for (int lane = 0; lane < kWarpSize; ++lane)
            one(lane, b, c);
        return;
    }
    for (int lane = 0; lane < kWarpSize; ++lane)
        one(lane, bv[lane], cv[lane]);
}

}  // namespace

void execute_warp_operation(Warp& w, const Instr& in, uint32_t exec, uint64_t clk, const ptx::Kernel& kernel)
{
    const Type t = in.type;
    switch (in.op) {
    case Op::Shfl: {
        Lanes s0, s1, s2, d, p;
        const uint64_t* a = source(w, in.ops[2], s0, clk);
        const uint64_t* bv = source(w, in.ops[3], s1, clk);
        const uint64_t* cv = source(w, in.ops[4], s2, clk);
        switch (in.mode) {
        case ptx::ShflUp:
            shuffle_lanes<ptx::ShflUp>(a, bv, cv, d, p);
            break;
        case ptx::ShflDown:
            shuffle_lanes<ptx::ShflDown>(a, bv, cv, d, p);
            break;
        case ptx::ShflBfly:
            shuffle_lanes<ptx::ShflBfly>(a, bv, cv, d, p);
            break;
        default:
            shuffle_lanes<ptx::ShflIdx>(a, bv, cv, d, p);
            break;
        }
        write_back(w, in.ops[0], d, exec);
        if (in.has_pair_dest)
            write_back(w, in.ops[1], p, exec);
        break;
    }
    case Op::Vote: {
        Lanes d, s;
        // Each lane votes with the lanes of its membermask: a lane outside it adds nothing to the
        // ballot, and all/uni look at the members alone (a cooperative-groups tile votes so).
        const bool masked = in.num_ops > 3 && in.ops[3].kind != Operand::Kind::None;
        const uint64_t* masks = masked ? source(w, in.ops[3], s, clk) : nullptr;
        const uint32_t yes =
            in.ops[2].kind == Operand::Kind::Imm ? (in.ops[2].imm ? exec : 0) : exec & predicate_mask(w, in.ops[2].reg);
        for (uint32_t m = exec; m; m &= m - 1) {
            const int lane = std::countr_zero(m);
            const uint32_t members = masks ? exec & static_cast<uint32_t>(masks[lane]) : exec;
            const uint32_t ballot = yes & members;
            switch (in.mode) {
            case ptx::VoteBallot:
                d[lane] = ballot;
                break;
            case ptx::VoteAll:
                d[lane] = ballot == members;
                break;
            case ptx::VoteAny:
                d[lane] = ballot != 0;
                break;
            default:
                d[lane] = ballot == 0 || ballot == members;
                break;
            }
        }
        write_back(w, in.ops[0], d, exec);
        break;
    }
    case Op::Activemask: {
        Lanes d;
        std::fill(d, d + kWarpSize, uint64_t{exec});
        write_back(w, in.ops[0], d, exec);
        break;
    }
    case Op::Redux: {
        Lanes s0, d;
        const uint64_t* a = source(w, in.ops[2], s0, clk);
        bool sign = ptx::is_signed(t);
        uint64_t r = in.mode == ptx::AtomAnd ? 0xffffffffu : 0;
        bool first = true;
        for (uint32_t m = exec; m; m &= m - 1) {
            int l = std::countr_zero(m);
            uint64_t v = alu::normalize(a[l], t);
            switch (in.mode) {
            case ptx::AtomAdd:
                r += v;
                break;
            case ptx::AtomAnd:
                r &= v;
                break;
            case ptx::AtomOr:
                r |= v;
                break;
            case ptx::AtomXor:
                r ^= v;
                break;
            case ptx::AtomMin:
                r = first ? v : sign ? (static_cast<int64_t>(v) < static_cast<int64_t>(r) ? v : r) : std::min(r, v);
                break;
            case ptx::AtomMax:
                r = first ? v : sign ? (static_cast<int64_t>(v) > static_cast<int64_t>(r) ? v : r) : std::max(r, v);
                break;
            default:
                throw_unsupported(in, kernel, "redux operation");
            }
            first = false;
        }
        std::fill(d, d + kWarpSize, r & 0xffffffffu);
        write_back(w, in.ops[0], d, exec);
        break;
    }
    case Op::Match: {
        // Each lane compares its value with those of the lanes of its membermask. match.any: the
        // members holding the same value; match.all: the members if all hold the same, else 0,
        // and the predicate says which.
        Lanes s0, s1, d, p;
        const uint64_t* a = source(w, in.ops[2], s0, clk);
        const bool masked = in.num_ops > 3 && in.ops[3].kind != Operand::Kind::None;
        const uint64_t* masks = masked ? source(w, in.ops[3], s1, clk) : nullptr;
        const uint64_t wm = alu::width_mask(bits_of(t));
        for (uint32_t lanes = exec; lanes; lanes &= lanes - 1) {
            const int l = std::countr_zero(lanes);
            const uint32_t members = masks ? exec & static_cast<uint32_t>(masks[l]) : exec;
            uint32_t same = 0;
            for (uint32_t m = members; m; m &= m - 1) {
                const int o = std::countr_zero(m);
                if ((a[o] & wm) == (a[l] & wm))
                    same |= 1u << o;
            }
            const bool all = same == members;
            d[l] = in.mode == ptx::MatchAll ? (all ? same : 0) : same;
            p[l] = all ? 1 : 0;
        }
        write_back(w, in.ops[0], d, exec);
        if (in.has_pair_dest)
            write_back(w, in.ops[1], p, exec);
        break;
    }
    default:
        throw_unsupported(in, kernel, "warp operation");
    }
}

}  // namespace cudasim
