// Building blocks of the interpreter: reading operands for all 32 lanes,
// writing results back under a lane mask, and the lane-wise loop that most
// instructions are made of.
#pragma once

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdint>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "exec/scheduling/warp.hpp"
#include "ptx/ir.hpp"

namespace cudasim {

using Lanes = uint64_t[kWarpSize];

inline int bits_of(ptx::Type t)
{
    return ptx::type_bytes(t) * 8;
}

using ptx::Instr;
using ptx::Operand;

// Pointer to the 32 lane values of an operand; immediates and clocks are
// expanded into `scratch`.
inline const uint64_t* source(Warp& w, const Operand& o, uint64_t* scratch, uint64_t clock)
{
    switch (o.kind) {
    case Operand::Kind::Reg:
        return w.reg(o.reg);
    case Operand::Kind::Imm:
        std::fill(scratch, scratch + kWarpSize, static_cast<uint64_t>(o.imm));
        return scratch;
    case Operand::Kind::Clock32:
        std::fill(scratch, scratch + kWarpSize, clock & 0xffffffffu);
        return scratch;
    case Operand::Kind::Clock64:
        std::fill(scratch, scratch + kWarpSize, clock);
        return scratch;
    case Operand::Kind::GlobalTimer: {
        auto ns =
            std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
                .count();
        std::fill(scratch, scratch + kWarpSize, static_cast<uint64_t>(ns));
        return scratch;
    }
    default:
        std::fill(scratch, scratch + kWarpSize, 0);
        return scratch;
    }
}

// d[l] = values[l] for the lanes of `mask`, as a blend of all 32 lanes without a branch per lane: a
// divergent warp's lanes follow no pattern a branch predictor learns, and the loop vectorises.
inline void blend_lanes(uint64_t* d, const uint64_t* values, uint32_t mask)
{
    for (int l = 0; l < kWarpSize; ++l) {
        const uint64_t keep = uint64_t{0} - ((mask >> l) & 1u);  // all ones for a lane of `mask`
        d[l] = (values[l] & keep) | (d[l] & ~keep);
    }
}

inline void write_back(Warp& w, const Operand& o, const uint64_t* values, uint32_t mask)
{
    if (o.kind != Operand::Kind::Reg)
        return;  // sink `_`
    uint64_t* d = w.reg(o.reg);
    if (mask == 0xffffffffu) {
        std::copy(values, values + kWarpSize, d);
        return;
    }
    blend_lanes(d, values, mask);
}

// Gathers bit 0 of every lane of a predicate register into a lane mask.
inline uint32_t predicate_mask(Warp& w, uint32_t reg)
{
    const uint64_t* p = w.reg(reg);
#if defined(__SSE2__)
    // Bit 0 of each lane, kept alone, then the 64-bit lanes narrowed to bytes by three rounds of
    // packing (each value 0 or 1 survives the saturation), and the bytes' bits collected.
    const __m128i one = _mm_set1_epi64x(1);
    const auto pair = [&](int l) {  // lanes l and l + 1, as two 32-bit words of four
        return _mm_and_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + l)), one);
    };
    const auto words = [&](int l) {  // lanes l to l + 3 as 32-bit words
        return _mm_packs_epi32(pair(l), pair(l + 2));
    };
    const auto halves = [&](int l) {  // lanes l to l + 7 as 16-bit words
        return _mm_packs_epi32(words(l), words(l + 4));
    };
    const auto bytes = [&](int l) {  // lanes l to l + 15 as bytes
        return _mm_packs_epi16(halves(l), halves(l + 8));
    };
    const auto low = static_cast<uint32_t>(_mm_movemask_epi8(_mm_slli_epi16(bytes(0), 7)));
    const auto high = static_cast<uint32_t>(_mm_movemask_epi8(_mm_slli_epi16(bytes(16), 7)));
    return low | high << 16;
#else
    uint32_t m = 0;
    for (int l = 0; l < kWarpSize; ++l)
        m |= static_cast<uint32_t>(p[l] & 1) << l;
    return m;
#endif
}

// Applies f lane-wise to the instruction's sources and writes ops[0].
// With a full mask the results go straight into the destination register
// (each lane reads its sources before writing, so aliasing is harmless);
// an immediate second operand is kept in a register instead of an array.
template <int N, class F>
inline void lanewise(Warp& w, const Instr& in, uint32_t mask, uint64_t clock, F f)
{
    Lanes s0, s1, s2, s3, temp;
    const Operand& dest = in.ops[0];
    bool direct = mask == 0xffffffffu && dest.kind == Operand::Kind::Reg;
    uint64_t* d = direct ? w.reg(dest.reg) : temp;
    const uint64_t* a = source(w, in.ops[2], s0, clock);
    if constexpr (N == 2) {
        if (in.ops[3].kind == Operand::Kind::Imm) {
            const uint64_t b = static_cast<uint64_t>(in.ops[3].imm);
            for (int l = 0; l < kWarpSize; ++l)
                d[l] = f(a[l], b);
            if (!direct)
                write_back(w, dest, d, mask);
            return;
        }
    }
    const uint64_t* b = N > 1 ? source(w, in.ops[3], s1, clock) : a;
    const uint64_t* c = N > 2 ? source(w, in.ops[4], s2, clock) : a;
    const uint64_t* e = N > 3 ? source(w, in.ops[5], s3, clock) : a;
    for (int l = 0; l < kWarpSize; ++l) {
        if constexpr (N == 1)
            d[l] = f(a[l]);
        else if constexpr (N == 2)
            d[l] = f(a[l], b[l]);
        else if constexpr (N == 3)
            d[l] = f(a[l], b[l], c[l]);
        else
            d[l] = f(a[l], b[l], c[l], e[l]);
    }
    if (!direct)
        write_back(w, dest, d, mask);
}

}  // namespace cudasim
