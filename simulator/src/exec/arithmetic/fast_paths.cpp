// The fast paths: one function per operation and operand shape (a register or an immediate in
// each source), its few parameters read from the instruction once per execution, and a loop over
// the 32 lanes that the compiler vectorises. The lane functions are execute_arithmetic's (arithmetic.cpp),
// written for the integer forms alone. This file is compiled once per build of fast_paths.hpp,
// each into a namespace of its own (CUDASIM_FAST_PATHS_BUILD); fast_path_builds.cpp chooses.
#include "exec/arithmetic/fast_paths.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <type_traits>

#include "exec/arithmetic/alu.hpp"
#include "exec/scheduling/lanes.hpp"
#include "exec/scheduling/opcode_classes.hpp"

#ifndef CUDASIM_FAST_PATHS_BUILD
#define CUDASIM_FAST_PATHS_BUILD fast_paths_baseline
#endif

// The AVX2 build: the functions below are compiled for AVX2, the headers' inline functions above
// for any x86-64 CPU. A copy of one of those that the compiler keeps out of line is a weak symbol
// the linker may keep for the whole program, so none may need AVX2 (a CPU without it would stop
// there); tools/check_isa_build_symbols.sh checks that no global or weak function but the entry
// point has an AVX instruction.
#if CUDASIM_FAST_PATHS_AVX2_TARGET
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2")
#endif
#endif

namespace cudasim {
namespace {

using ptx::Instr;
using ptx::Op;
using ptx::Operand;
using ptx::Type;

// A source operand the shape chose: a register's 32 lanes, or an immediate for every lane.
template <bool Immediate>
struct Source {
    const uint64_t* lanes = nullptr;
    uint64_t value = 0;
    Source(Warp& w, const Operand& o)
    {
        if constexpr (Immediate)
            value = static_cast<uint64_t>(o.imm);
        else
            lanes = w.reg(o.reg);
    }
    uint64_t operator[](int lane) const
    {
        if constexpr (Immediate)
            return value;
        else
            return lanes[lane];
    }
};

// Up to this many lanes, computing each alone costs less than all 32 at once.
constexpr int kFewLanes = 4;

// d = f(lane) for the lanes in `exec`: straight into the destination for a full warp (each lane
// reads its sources before it writes, so a destination that is also a source is harmless); lane
// by lane for a few lanes (one thread's serial code); else all 32 into a scratch copy, blended
// into the destination over the lanes of `exec` (blend_lanes).
template <class F>
inline void write_lanes(Warp& w, const Instr& in, uint32_t exec, F f)
{
    uint64_t* d = w.reg(in.ops[0].reg);
    if (exec == 0xffffffffu) {
        for (int l = 0; l < kWarpSize; ++l)
            d[l] = f(l);
        return;
    }
    if (std::popcount(exec) <= kFewLanes) {
        for (uint32_t m = exec; m; m &= m - 1) {
            const int l = std::countr_zero(m);
            d[l] = f(l);
        }
        return;
    }
    uint64_t values[kWarpSize];
    for (int l = 0; l < kWarpSize; ++l)
        values[l] = f(l);
    blend_lanes(d, values, exec);
}

// One source (ops[2]), two (ops[2], ops[3]) or three (and ops[4]); the first is a register. `Fn`
// is made from the instruction, once per execution.
template <class Fn, bool ImmediateA>
void unary(Warp& w, const Instr& in, uint32_t exec)
{
    const Fn f(in);
    const Source<ImmediateA> a(w, in.ops[2]);
    write_lanes(w, in, exec, [&](int l) { return f(a[l]); });
}

template <class Fn, bool ImmediateB>
void binary(Warp& w, const Instr& in, uint32_t exec)
{
    const Fn f(in);
    const Source<false> a(w, in.ops[2]);
    const Source<ImmediateB> b(w, in.ops[3]);
    write_lanes(w, in, exec, [&](int l) { return f(a[l], b[l]); });
}

template <class Fn, bool ImmediateB, bool ImmediateC>
void ternary(Warp& w, const Instr& in, uint32_t exec)
{
    const Fn f(in);
    const Source<false> a(w, in.ops[2]);
    const Source<ImmediateB> b(w, in.ops[3]);
    const Source<ImmediateC> c(w, in.ops[4]);
    write_lanes(w, in, exec, [&](int l) { return f(a[l], b[l], c[l]); });
}

// div and rem of unsigned integers. A divisor that every lane of `exec` shares and that is a power
// of two (`tid % (2 * stride)`) makes a mask or a shift for the whole warp; any other a division
// per lane, by zero as on a GPU: all ones for the quotient, the dividend for the remainder.
template <class U, bool Remainder, bool ImmediateB>
void divide_unsigned(Warp& w, const Instr& in, uint32_t exec)
{
    if (exec == 0)
        return;
    constexpr uint64_t keep = static_cast<U>(~U{0});
    const Source<false> a(w, in.ops[2]);
    const Source<ImmediateB> b(w, in.ops[3]);
    const uint64_t d = b[std::countr_zero(exec)] & keep;
    uint64_t differs = 0;
    if constexpr (!ImmediateB) {
        if (exec == 0xffffffffu) {  // no early exit, so that the loop vectorises
            for (int l = 0; l < kWarpSize; ++l)
                differs |= (b[l] ^ d) & keep;
        } else {
            for (uint32_t m = exec; m; m &= m - 1)
                differs |= (b[std::countr_zero(m)] ^ d) & keep;
        }
    }
    if (differs == 0 && std::has_single_bit(d)) {
        const int shift = std::countr_zero(d);
        if constexpr (Remainder)
            write_lanes(w, in, exec, [&](int l) { return a[l] & (d - 1); });
        else
            write_lanes(w, in, exec, [&](int l) { return (a[l] & keep) >> shift; });
        return;
    }
    write_lanes(w, in, exec, [&](int l) -> uint64_t {
        const auto x = static_cast<U>(a[l]), y = static_cast<U>(b[l]);
        if (y == 0)
            return Remainder ? x : static_cast<U>(~U{0});
        return Remainder ? x % y : x / y;
    });
}

// ---- the lane functions ----

// A register's 32-bit value, as a 64-bit word: zero- or sign-extended. Each lane stays in its
// 64-bit slot (a mask, or an exclusive or and a subtraction), so that a vectorised loop needs no
// narrowing to 32-bit lanes and widening back, which cost more than the operation itself.
inline uint64_t zero_extend32(uint64_t v)
{
    return v & 0xffffffffu;
}

inline uint64_t sign_extend32(uint64_t v)
{
    constexpr uint64_t kSign = uint64_t{1} << 31;
    return ((v & 0xffffffffu) ^ kSign) - kSign;
}

// add, sub and mul.lo/mad.lo wrap around in the type's width, whatever its sign: computed on 64
// bits, the low 32 kept for a 32-bit type.
template <class U, bool Subtract>
struct AddSub {
    explicit AddSub(const Instr&) {}
    uint64_t operator()(uint64_t a, uint64_t b) const
    {
        const uint64_t r = Subtract ? a - b : a + b;
        return sizeof(U) == 4 ? zero_extend32(r) : r;
    }
};

struct MulLo32 {
    explicit MulLo32(const Instr&) {}
    uint64_t operator()(uint64_t a, uint64_t b) const { return static_cast<uint32_t>(a * b); }
    uint64_t operator()(uint64_t a, uint64_t b, uint64_t c) const { return static_cast<uint32_t>(a * b + c); }
};

template <bool Signed>
struct MulWide32 {
    explicit MulWide32(const Instr&) {}
    static uint64_t widen(uint64_t v) { return Signed ? sign_extend32(v) : zero_extend32(v); }
    uint64_t operator()(uint64_t a, uint64_t b) const { return widen(a) * widen(b); }
    uint64_t operator()(uint64_t a, uint64_t b, uint64_t c) const { return widen(a) * widen(b) + c; }
};

// mul.wide by an immediate power of two (an index scaled to an element's bytes): a shift.
template <bool Signed>
struct MulWideByPowerOfTwo32 {
    int shift;
    explicit MulWideByPowerOfTwo32(const Instr& in) : shift(std::countr_zero(static_cast<uint32_t>(in.ops[3].imm))) {}
    uint64_t operator()(uint64_t a, uint64_t) const { return MulWide32<Signed>::widen(a) << shift; }
};

// and, or, xor: on the registers' 64 bits, as execute_arithmetic does.
template <Op Which>
struct Logic {
    explicit Logic(const Instr&) {}
    uint64_t operator()(uint64_t a, uint64_t b) const
    {
        if constexpr (Which == Op::And)
            return a & b;
        else if constexpr (Which == Op::Or)
            return a | b;
        else
            return a ^ b;
    }
};

struct ShiftLeft {
    int bits;
    uint64_t keep;
    explicit ShiftLeft(const Instr& in) : bits(ptx::type_bytes(in.type) * 8), keep(alu::width_mask(bits)) {}
    uint64_t operator()(uint64_t a, uint64_t b) const
    {
        const uint64_t s = b & 0xffffffffu;
        return s >= static_cast<uint64_t>(bits) ? 0 : (a << s) & keep;
    }
};

struct ShiftRightUnsigned {
    int bits;
    uint64_t keep;
    explicit ShiftRightUnsigned(const Instr& in) : bits(ptx::type_bytes(in.type) * 8), keep(alu::width_mask(bits)) {}
    uint64_t operator()(uint64_t a, uint64_t b) const
    {
        const uint64_t s = std::min<uint64_t>(b & 0xffffffffu, static_cast<uint64_t>(bits));
        return s >= static_cast<uint64_t>(bits) ? 0 : (a & keep) >> s;
    }
};

struct ShiftRightSigned {
    int bits;
    uint64_t keep;
    explicit ShiftRightSigned(const Instr& in) : bits(ptx::type_bytes(in.type) * 8), keep(alu::width_mask(bits)) {}
    uint64_t operator()(uint64_t a, uint64_t b) const
    {
        const uint64_t s = std::min<uint64_t>(b & 0xffffffffu, static_cast<uint64_t>(bits));
        return static_cast<uint64_t>(alu::sign_extend(a, bits) >> std::min<uint64_t>(s, 63)) & keep;
    }
};

// shl and shr.u by a constant below 64: the same count in every lane.
struct ShiftLeftByConstant {
    uint64_t keep;
    explicit ShiftLeftByConstant(const Instr& in) : keep(alu::width_mask(ptx::type_bytes(in.type) * 8)) {}
    uint64_t operator()(uint64_t a, uint64_t b) const { return (a << (b & 0xffffffffu)) & keep; }
};

struct ShiftRightByConstant {
    uint64_t keep;
    explicit ShiftRightByConstant(const Instr& in) : keep(alu::width_mask(ptx::type_bytes(in.type) * 8)) {}
    uint64_t operator()(uint64_t a, uint64_t b) const { return (a & keep) >> (b & 0xffffffffu); }
};

// shf.l/shf.r, .wrap or .clamp: the 64-bit value b:a shifted, its high or low half kept.
template <bool Left, bool Clamp>
struct FunnelShift {
    explicit FunnelShift(const Instr&) {}
    uint64_t operator()(uint64_t a, uint64_t b, uint64_t c) const
    {
        const uint64_t n = Clamp ? std::min<uint64_t>(c & 0xffffffffu, 32) : (c & 31);
        const uint64_t joined = ((b & 0xffffffffu) << 32) | (a & 0xffffffffu);
        return Left ? ((joined << n) >> 32) & 0xffffffffu : (joined >> n) & 0xffffffffu;
    }
};

struct Move {
    uint64_t keep;
    explicit Move(const Instr& in)
        : keep(in.type == Type::None   ? ~0ull
               : in.type == Type::Pred ? 1
                                       : alu::width_mask(ptx::type_bytes(in.type) * 8))
    {
    }
    uint64_t operator()(uint64_t a) const { return a & keep; }
};

// cvt between integer types without .sat: widening keeps the source's sign, narrowing truncates.
template <bool SignedSource>
struct IntegerConversion {
    int unused;
    uint64_t keep;
    explicit IntegerConversion(const Instr& in)
        : unused(64 - ptx::type_bytes(in.src_type) * 8), keep(alu::width_mask(ptx::type_bytes(in.type) * 8))
    {
    }
    uint64_t operator()(uint64_t a) const
    {
        if constexpr (SignedSource)
            return static_cast<uint64_t>(static_cast<int64_t>(a << unused) >> unused) & keep;
        else
            return (a << unused >> unused) & keep;
    }
};

// The same for the commonest widths, 32 and 64 bits, known when compiled: a sign or zero extension
// or a truncation, without the shifts by a width read at run time.
template <int SourceBits, int DestinationBits, bool SignedSource>
struct WordConversion {
    explicit WordConversion(const Instr&) {}
    uint64_t operator()(uint64_t a) const
    {
        uint64_t value = a;
        if constexpr (SourceBits == 32)
            value = SignedSource ? sign_extend32(a) : zero_extend32(a);
        if constexpr (DestinationBits == 32)
            value = zero_extend32(value);
        return value;
    }
};

// setp without a predicate to combine with or a second destination: 1 or 0 in each lane.
template <class T, ptx::CmpMode Mode>
struct Compare {
    explicit Compare(const Instr&) {}
    // 32-bit values compared as 64-bit ones that keep their order: zero-extended (unsigned) or
    // moved to the high half (signed), so that the loop stays in 64-bit lanes.
    static auto key(uint64_t v)
    {
        if constexpr (std::is_same_v<T, uint32_t>)
            return static_cast<int64_t>(zero_extend32(v));
        else if constexpr (std::is_same_v<T, int32_t>)
            return static_cast<int64_t>(v << 32);
        else
            return static_cast<T>(v);
    }
    uint64_t operator()(uint64_t a, uint64_t b) const
    {
        const auto x = key(a), y = key(b);
        bool r;
        if constexpr (Mode == ptx::CmpEq)
            r = x == y;
        else if constexpr (Mode == ptx::CmpNe)
            r = x != y;
        else if constexpr (Mode == ptx::CmpLt)
            r = x < y;
        else if constexpr (Mode == ptx::CmpLe)
            r = x <= y;
        else if constexpr (Mode == ptx::CmpGt)
            r = x > y;
        else
            r = x >= y;
        return r ? 1 : 0;
    }
};

// ---- choosing ----

bool is_integer(Type t)
{
    return (t >= Type::B8 && t <= Type::S64);
}

bool is_word(Type t)  // 32- or 64-bit integer
{
    return is_integer(t) && ptx::type_bytes(t) >= 4;
}

bool is_register(const Operand& o)
{
    return o.kind == Operand::Kind::Reg;
}

bool is_register_or_immediate(const Operand& o)
{
    return o.kind == Operand::Kind::Reg || o.kind == Operand::Kind::Imm;
}

bool is_immediate(const Operand& o)
{
    return o.kind == Operand::Kind::Imm;
}

template <class Fn>
FastPath binary_of(const Instr& in)
{
    return is_immediate(in.ops[3]) ? &binary<Fn, true> : &binary<Fn, false>;
}

template <class Fn>
FastPath ternary_of(const Instr& in)
{
    if (is_immediate(in.ops[3]))
        return is_immediate(in.ops[4]) ? &ternary<Fn, true, true> : &ternary<Fn, true, false>;
    return is_immediate(in.ops[4]) ? &ternary<Fn, false, true> : &ternary<Fn, false, false>;
}

template <class T>
FastPath compare_of(const Instr& in)
{
    switch (in.mode) {
    case ptx::CmpEq:
        return binary_of<Compare<T, ptx::CmpEq>>(in);
    case ptx::CmpNe:
        return binary_of<Compare<T, ptx::CmpNe>>(in);
    case ptx::CmpLt:
        return binary_of<Compare<T, ptx::CmpLt>>(in);
    case ptx::CmpLe:
        return binary_of<Compare<T, ptx::CmpLe>>(in);
    case ptx::CmpGt:
        return binary_of<Compare<T, ptx::CmpGt>>(in);
    case ptx::CmpGe:
        return binary_of<Compare<T, ptx::CmpGe>>(in);
    default:
        return nullptr;
    }
}

FastPath setp_of(const Instr& in)
{
    switch (in.type) {
    case Type::S32:
        return compare_of<int32_t>(in);
    case Type::U32:
    case Type::B32:
        return compare_of<uint32_t>(in);
    case Type::S64:
        return compare_of<int64_t>(in);
    case Type::U64:
    case Type::B64:
        return compare_of<uint64_t>(in);
    default:
        return nullptr;
    }
}

template <bool Subtract>
FastPath add_sub_of(const Instr& in)
{
    return ptx::type_bytes(in.type) == 4 ? binary_of<AddSub<uint32_t, Subtract>>(in)
                                         : binary_of<AddSub<uint64_t, Subtract>>(in);
}

// mul and mad of 32-bit integers, .lo or .wide (mad's third source may be an immediate).
FastPath multiply_of(const Instr& in, bool addend)
{
    if (ptx::type_bytes(in.type) != 4)
        return nullptr;
    if (in.mode == ptx::MulLo)
        return addend ? ternary_of<MulLo32>(in) : binary_of<MulLo32>(in);
    if (in.mode != ptx::MulWide)
        return nullptr;
    if (const auto factor = static_cast<uint64_t>(in.ops[3].imm);
        !addend && is_immediate(in.ops[3]) && std::has_single_bit(factor) && factor < (uint64_t{1} << 31))
        return ptx::is_signed(in.type) ? &binary<MulWideByPowerOfTwo32<true>, true>
                                       : &binary<MulWideByPowerOfTwo32<false>, true>;
    if (ptx::is_signed(in.type))
        return addend ? ternary_of<MulWide32<true>>(in) : binary_of<MulWide32<true>>(in);
    return addend ? ternary_of<MulWide32<false>>(in) : binary_of<MulWide32<false>>(in);
}

FastPath shift_of(const Instr& in)
{
    const bool constant = is_immediate(in.ops[3]) && static_cast<uint64_t>(in.ops[3].imm & 0xffffffff) < 64;
    if (in.op == Op::Shl)
        return constant ? &binary<ShiftLeftByConstant, true> : binary_of<ShiftLeft>(in);
    if (ptx::is_signed(in.type))
        return binary_of<ShiftRightSigned>(in);
    return constant ? &binary<ShiftRightByConstant, true> : binary_of<ShiftRightUnsigned>(in);
}

template <bool Remainder>
FastPath divide_of(const Instr& in)
{
    const bool immediate = is_immediate(in.ops[3]);
    switch (in.type) {
    case Type::U32:
        return immediate ? &divide_unsigned<uint32_t, Remainder, true> : &divide_unsigned<uint32_t, Remainder, false>;
    case Type::U64:
        return immediate ? &divide_unsigned<uint64_t, Remainder, true> : &divide_unsigned<uint64_t, Remainder, false>;
    default:
        return nullptr;
    }
}

FastPath funnel_shift_of(const Instr& in)
{
    const bool left = in.mode & ptx::ShfLeft, clamp = in.mode & ptx::ShfClamp;
    if (left)
        return clamp ? ternary_of<FunnelShift<true, true>>(in) : ternary_of<FunnelShift<true, false>>(in);
    return clamp ? ternary_of<FunnelShift<false, true>>(in) : ternary_of<FunnelShift<false, false>>(in);
}

FastPath conversion_of(const Instr& in)
{
    if (!is_integer(in.type) || !is_integer(in.src_type))
        return nullptr;
    const bool from_signed = ptx::is_signed(in.src_type);
    const int from = ptx::type_bytes(in.src_type) * 8, to = ptx::type_bytes(in.type) * 8;
    if (from == 32 && to == 64)  // an index or a sum widened: most conversions
        return from_signed ? &unary<WordConversion<32, 64, true>, false> : &unary<WordConversion<32, 64, false>, false>;
    if (from == 64 && to == 32)
        return &unary<WordConversion<64, 32, false>, false>;
    return from_signed ? &unary<IntegerConversion<true>, false> : &unary<IntegerConversion<false>, false>;
}

}  // namespace

namespace CUDASIM_FAST_PATHS_BUILD {

FastPath fast_path_of(const Instr& in)
{
    if (executor_of(in.op) != Executor::Arithmetic || in.carry_in || in.carry_out || in.sat || in.ftz ||
        in.has_pair_dest || in.bool_mode != ptx::BoolNone || !is_register(in.ops[0]))
        return nullptr;
    const Type t = in.type;
    // The sources each form reads: ops[2] a register, ops[3] and ops[4] registers or immediates.
    const int sources = in.num_ops - 2;
    if (sources < 1 || !is_register_or_immediate(in.ops[2]))
        return nullptr;
    if (in.op == Op::Mov && sources == 1 && !ptx::is_packed_integer(t))
        return is_immediate(in.ops[2]) ? &unary<Move, true> : &unary<Move, false>;
    if (!is_register(in.ops[2]))
        return nullptr;
    if (in.op == Op::Cvt && sources == 1)
        return conversion_of(in);
    if (sources < 2 || !is_register_or_immediate(in.ops[3]))
        return nullptr;
    switch (in.op) {
    case Op::Add:
        return sources == 2 && is_word(t) ? add_sub_of<false>(in) : nullptr;
    case Op::Sub:
        return sources == 2 && is_word(t) ? add_sub_of<true>(in) : nullptr;
    case Op::Mul:
        return sources == 2 && is_word(t) ? multiply_of(in, false) : nullptr;
    case Op::Mad:
        return sources == 3 && is_word(t) && is_register_or_immediate(in.ops[4]) ? multiply_of(in, true) : nullptr;
    case Op::Div:
        return sources == 2 ? divide_of<false>(in) : nullptr;
    case Op::Rem:
        return sources == 2 ? divide_of<true>(in) : nullptr;
    case Op::And:
        return sources == 2 && (is_integer(t) || t == Type::Pred) ? binary_of<Logic<Op::And>>(in) : nullptr;
    case Op::Or:
        return sources == 2 && (is_integer(t) || t == Type::Pred) ? binary_of<Logic<Op::Or>>(in) : nullptr;
    case Op::Xor:
        return sources == 2 && (is_integer(t) || t == Type::Pred) ? binary_of<Logic<Op::Xor>>(in) : nullptr;
    case Op::Shl:
    case Op::Shr:
        return sources == 2 && is_integer(t) ? shift_of(in) : nullptr;
    case Op::Shf:
        return sources == 3 && is_register_or_immediate(in.ops[4]) ? funnel_shift_of(in) : nullptr;
    case Op::Setp:
        return sources == 2 ? setp_of(in) : nullptr;
    default:
        return nullptr;
    }
}

}  // namespace CUDASIM_FAST_PATHS_BUILD
}  // namespace cudasim

#if CUDASIM_FAST_PATHS_AVX2_TARGET
#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif
#endif
#undef CUDASIM_FAST_PATHS_BUILD
