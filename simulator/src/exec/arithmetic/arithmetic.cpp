// Arithmetic, logic, comparison, conversion and data-movement
// instructions: everything that only reads and writes registers.
#include "exec/arithmetic/arithmetic.hpp"

#include <algorithm>
#include <bit>
#include <cfenv>
#include <cmath>
#include <functional>
#include <type_traits>

#include "exec/arithmetic/alu.hpp"
#include "exec/arithmetic/half_precision.hpp"
#include "exec/arithmetic/packed_integer.hpp"
#include "exec/scheduling/lanes.hpp"
#include "exec/scheduling/launch_context.hpp"
#include "support/demangle.hpp"

namespace cudasim {
namespace {

using ptx::Op;
using ptx::Type;

// ---- arithmetic families, dispatched on the operation type ----

// Applies a two-operand integer operation on the C++ type T that matches
// the PTX type; the result is stored zero-extended.
template <class T, class F>
void integer_lanes(Warp& w, const Instr& in, uint32_t mask, uint64_t clk, F f)
{
    using U = std::make_unsigned_t<T>;
    lanewise<2>(w, in, mask, clk, [&](uint64_t a, uint64_t b) {
        return static_cast<uint64_t>(static_cast<U>(f(static_cast<T>(a), static_cast<T>(b))));
    });
}

template <class IntOp, class FloatOp>
void arith2(Warp& w, const Instr& in, uint32_t mask, uint64_t clk, IntOp iop, FloatOp fop)
{
    switch (in.type) {
    case Type::F32: {
        bool sat = in.sat;
        auto lanes = [&](auto flush) {
            lanewise<2>(w, in, mask, clk, [&](uint64_t a, uint64_t b) {
                float r = flush(static_cast<float>(fop(flush(alu::f32(a)), flush(alu::f32(b)))));
                if (sat)
                    r = std::isnan(r) ? 0.0f : std::clamp(r, 0.0f, 1.0f);
                return alu::canonical_bits(r);
            });
        };
        if (in.ftz)
            lanes(alu::flush_subnormal);
        else
            lanes([](float f) { return f; });
        return;
    }
    case Type::F64:
        lanewise<2>(w, in, mask, clk, [&](uint64_t a, uint64_t b) {
            return alu::bits(static_cast<double>(fop(alu::f64(a), alu::f64(b))));
        });
        return;
    case Type::S16:
        integer_lanes<int16_t>(w, in, mask, clk, iop);
        return;
    case Type::U16:
    case Type::B16:
        integer_lanes<uint16_t>(w, in, mask, clk, iop);
        return;
    case Type::S32:
        integer_lanes<int32_t>(w, in, mask, clk, iop);
        return;
    case Type::U32:
    case Type::B32:
        integer_lanes<uint32_t>(w, in, mask, clk, iop);
        return;
    case Type::S64:
        integer_lanes<int64_t>(w, in, mask, clk, iop);
        return;
    default:
        integer_lanes<uint64_t>(w, in, mask, clk, iop);
        return;
    }
}

// mul and mad/fma share their lane functions f(a, b, c); a mul has no third operand, so it reads
// two and passes c = 0 (a floating-point lane function still tells the two apart: fma(a, b, +0) is
// not a * b when that is -0).
template <class F>
void multiply_lanes(Warp& w, const Instr& in, uint32_t mask, uint64_t clk, bool addend, F f)
{
    if (addend)
        lanewise<3>(w, in, mask, clk, f);
    else
        lanewise<2>(w, in, mask, clk, [&f](uint64_t a, uint64_t b) { return f(a, b, 0); });
}

void mul_family(Warp& w, const Instr& in, uint32_t mask, uint64_t clk, bool addend)
{
    if (ptx::is_float(in.type)) {
        if (in.type == Type::F32)
            multiply_lanes(w, in, mask, clk, addend, [&](uint64_t a, uint64_t b, uint64_t c) {
                const float x = alu::f32(alu::flushed_bits(a, in.ftz)), y = alu::f32(alu::flushed_bits(b, in.ftz));
                float r = addend ? std::fma(x, y, alu::f32(alu::flushed_bits(c, in.ftz))) : x * y;
                if (in.ftz)
                    r = alu::flush_subnormal(r);
                if (in.sat)
                    r = std::isnan(r) ? 0.0f : std::clamp(r, 0.0f, 1.0f);
                return alu::canonical_bits(r);
            });
        else
            multiply_lanes(w, in, mask, clk, addend, [&](uint64_t a, uint64_t b, uint64_t c) {
                return alu::bits(addend ? std::fma(alu::f64(a), alu::f64(b), alu::f64(c)) : alu::f64(a) * alu::f64(b));
            });
        return;
    }
    Type t = in.type;
    int bits = bits_of(t);
    bool sign = ptx::is_signed(t);
    uint8_t mode = in.mode;
    if (mode == ptx::MulLo && bits == 32) {  // the common case, kept tight
        multiply_lanes(w, in, mask, clk, addend, [](uint64_t a, uint64_t b, uint64_t c) {
            return static_cast<uint64_t>(static_cast<uint32_t>(a * b + c));
        });
        return;
    }
    if (mode == ptx::MulWide && bits == 32) {
        multiply_lanes(w, in, mask, clk, addend, [sign](uint64_t a, uint64_t b, uint64_t c) {
            uint64_t x =
                sign ? static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(a))) : static_cast<uint32_t>(a);
            uint64_t y =
                sign ? static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(b))) : static_cast<uint32_t>(b);
            return x * y + c;
        });
        return;
    }
    multiply_lanes(w, in, mask, clk, addend, [&](uint64_t a, uint64_t b, uint64_t c) {
        uint64_t x = alu::normalize(a, t), y = alu::normalize(b, t), r;
        if (mode == ptx::MulWide) {
            r = x * y + c;  // operands are sign- or zero-extended, so 64-bit product is exact
            return bits == 32 ? r : r & alu::width_mask(bits * 2);
        }
        if (mode == ptx::MulHi) {
            if (sign) {
                __int128 p = static_cast<__int128>(static_cast<int64_t>(x)) * static_cast<int64_t>(y);
                r = static_cast<uint64_t>(p >> bits);
            } else {
                unsigned __int128 p = static_cast<unsigned __int128>(x) * y;
                r = static_cast<uint64_t>(p >> bits);
            }
        } else {
            r = x * y;
        }
        return (r + c) & alu::width_mask(bits);
    });
}

// An integer add or subtract wraps around in the type's width, as the GPU's does: computed on the
// unsigned type (a signed overflow is undefined in C++), the result taken back to T.
template <class T, class F>
T wrapping(T a, T b, F f)
{
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(f(static_cast<U>(a), static_cast<U>(b))));
}

// PTX leaves division by zero undefined; GPUs return all ones for the
// quotient and we keep the dividend as remainder. INT_MIN / -1 wraps.
template <class T>
T int_div(T a, T b)
{
    if (b == 0)
        return static_cast<T>(~T{0});
    if constexpr (std::is_signed_v<T>) {
        if (b == -1)
            return static_cast<T>(static_cast<std::make_unsigned_t<T>>(0) - static_cast<std::make_unsigned_t<T>>(a));
    }
    return static_cast<T>(a / b);
}

template <class T>
T int_rem(T a, T b)
{
    if (b == 0)
        return a;
    if constexpr (std::is_signed_v<T>) {
        if (b == -1)
            return 0;
    }
    return static_cast<T>(a % b);
}

// `tid % (2 * stride)`: an unsigned division by a power of two that every lane shares is a shift or a
// mask, done for the whole warp at once instead of one hardware division per lane. Returns false
// (nothing done) for any other division.
bool divide_by_uniform_power_of_two(Warp& w, const Instr& in, uint32_t exec, uint64_t clk)
{
    if (ptx::is_signed(in.type) || ptx::is_float(in.type) || exec == 0)
        return false;
    const Operand& divisor = in.ops[3];
    const uint64_t wm = alu::width_mask(bits_of(in.type));
    uint64_t d = 0;
    if (divisor.kind == Operand::Kind::Imm) {
        d = static_cast<uint64_t>(divisor.imm) & wm;
    } else if (divisor.kind == Operand::Kind::Reg) {
        const uint64_t* v = w.reg(divisor.reg);
        d = v[std::countr_zero(exec)] & wm;
        uint64_t differs = 0;
        if (exec == 0xffffffffu) {  // a whole warp: no early exit, so that the compiler vectorises it
            for (int l = 0; l < kWarpSize; ++l)
                differs |= (v[l] ^ d) & wm;
        } else {
            for (uint32_t m = exec; m; m &= m - 1)
                differs |= (v[std::countr_zero(m)] ^ d) & wm;
        }
        if (differs != 0)
            return false;
    } else {
        return false;
    }
    if (!std::has_single_bit(d))
        return false;
    const int shift = std::countr_zero(d);
    if (in.op == Op::Div)
        lanewise<1>(w, in, exec, clk, [wm, shift](uint64_t a) { return (a & wm) >> shift; });
    else
        lanewise<1>(w, in, exec, clk, [low = d - 1](uint64_t a) { return a & low; });
    return true;
}

template <class F32, class F64>
void float_unary(Warp& w, const Instr& in, uint32_t mask, uint64_t clk, const ptx::Kernel& kernel, F32 f, F64 g)
{
    if (in.type == Type::F32 && in.ftz)
        lanewise<1>(w, in, mask, clk, [&](uint64_t a) {
            return alu::canonical_bits(alu::flush_subnormal(static_cast<float>(f(alu::flush_subnormal(alu::f32(a))))));
        });
    else if (in.type == Type::F32)
        lanewise<1>(w, in, mask, clk,
                    [&](uint64_t a) { return alu::canonical_bits(static_cast<float>(f(alu::f32(a)))); });
    else if (in.type == Type::F64)
        lanewise<1>(w, in, mask, clk, [&](uint64_t a) { return alu::bits(static_cast<double>(g(alu::f64(a)))); });
    else
        throw_unsupported(in, kernel, "type");
}

void convert(Warp& w, const Instr& in, uint32_t mask, uint64_t clk, const ptx::Kernel& kernel)
{
    Type to = in.type, from = in.src_type;
    uint8_t mode = in.mode;
    bool sat = in.sat;
    auto read_float = [from](uint64_t a) -> double {
        return from == Type::F16 || from == Type::BF16 ? alu::narrow_float(a, from)
               : from == Type::F32                     ? alu::f32(a)
                                                       : alu::f64(a);
    };
    if (ptx::is_packed_float(to)) {
        // cvt.rn.f16x2.f32 d, a, b: a into the high half, b into the low one.
        if (from != Type::F32 || mode >= ptx::RoundRni || in.num_ops < 4)
            throw_unsupported(in, kernel, "conversion");
        const Type element = to == Type::F16x2 ? Type::F16 : Type::BF16;
        lanewise<2>(w, in, mask, clk, [sat, element](uint64_t a, uint64_t b) {
            auto narrow = [sat, element](float f) -> uint64_t {
                if (std::isnan(f) && !sat)
                    return 0x7fffu;
                double v = f;
                if (sat)
                    v = std::isnan(v) ? 0.0 : std::clamp(v, 0.0, 1.0);
                return alu::narrow_bits(v, element) & 0xffff;
            };
            return narrow(alu::f32(a)) << 16 | narrow(alu::f32(b));
        });
        return;
    }
    if (ptx::is_packed_float(from) || ptx::is_packed_integer(from) || ptx::is_packed_integer(to))
        throw_unsupported(in, kernel, "conversion");
    if (ptx::is_float(from) && ptx::is_float(to)) {
        // A NaN keeps its sign and payload, except from f32 to a 16-bit float and from f16 to f32,
        // which give the canonical NaN (what an H100 does).
        const bool canonical_na_n =
            (from == Type::F32 && (to == Type::F16 || to == Type::BF16)) || (from == Type::F16 && to == Type::F32);
        lanewise<1>(w, in, mask, clk, [&](uint64_t a) {
            double v = read_float(a);
            if (canonical_na_n && std::isnan(v))
                return to == Type::F32 ? uint64_t{0x7fffffffu} : uint64_t{0x7fffu};
            if (mode >= ptx::RoundRni)
                v = alu::round_integral(v, mode);
            if (sat)
                v = std::isnan(v) ? 0.0 : std::clamp(v, 0.0, 1.0);
            return to == Type::F16 || to == Type::BF16 ? alu::narrow_bits(v, to)
                   : to == Type::F32                   ? alu::bits(static_cast<float>(v))
                                                       : alu::bits(v);
        });
    } else if (ptx::is_float(from)) {
        // A NaN becomes 0 where a float turns into a 32-bit integer, and otherwise the integer with
        // only its top bit set (what an H100 gives).
        const int bits = ptx::type_bytes(to) * 8;
        const uint64_t nan = from != Type::F64 && bits == 32 ? 0 : uint64_t{1} << (bits - 1);
        lanewise<1>(w, in, mask, clk, [&](uint64_t a) {
            const double v = read_float(a);
            return std::isnan(v) ? nan : alu::float_to_int(v, to, mode);
        });
    } else if (ptx::is_float(to)) {
        lanewise<1>(w, in, mask, clk, [&](uint64_t a) {
            uint64_t x = alu::normalize(a, from);
            if (to == Type::F16 || to == Type::BF16) {
                double d = ptx::is_signed(from) ? static_cast<double>(static_cast<int64_t>(x)) : static_cast<double>(x);
                return alu::narrow_bits(sat ? std::clamp(d, 0.0, 1.0) : d, to);
            }
            if (to == Type::F32) {
                float f = ptx::is_signed(from) ? static_cast<float>(static_cast<int64_t>(x)) : static_cast<float>(x);
                if (sat)
                    f = std::clamp(f, 0.0f, 1.0f);
                return alu::bits(f);
            }
            double d = ptx::is_signed(from) ? static_cast<double>(static_cast<int64_t>(x)) : static_cast<double>(x);
            return alu::bits(d);
        });
    } else if (!sat && ptx::type_bytes(from) > 0 && ptx::type_bytes(to) > 0) {
        // Widening keeps the source's sign, narrowing truncates: one shift pair and a mask per lane.
        const int unused = 64 - ptx::type_bytes(from) * 8;
        const uint64_t keep = alu::width_mask(ptx::type_bytes(to) * 8);
        if (ptx::is_signed(from))
            lanewise<1>(w, in, mask, clk, [unused, keep](uint64_t a) {
                return static_cast<uint64_t>(static_cast<int64_t>(a << unused) >> unused) & keep;
            });
        else
            lanewise<1>(w, in, mask, clk, [unused, keep](uint64_t a) { return (a << unused >> unused) & keep; });
    } else {
        lanewise<1>(w, in, mask, clk, [&](uint64_t a) { return alu::int_to_int(a, from, to, sat); });
    }
}

uint64_t bit_field_extract(uint64_t a, uint64_t pos, uint64_t len, Type t)
{
    int bits = bits_of(t);
    pos &= 0xff;
    len &= 0xff;
    uint64_t x = a & alu::width_mask(bits);
    uint64_t r = 0;
    if (len > 0) {
        r = pos >= static_cast<uint64_t>(bits)
                ? 0
                : (x >> pos) & alu::width_mask(static_cast<int>(std::min<uint64_t>(len, 64)));
        if (ptx::is_signed(t)) {
            uint64_t top = std::min<uint64_t>(pos + len - 1, static_cast<uint64_t>(bits - 1));
            bool sign_bit = (x >> top) & 1;
            uint64_t l = std::min<uint64_t>(len, static_cast<uint64_t>(bits));
            if (sign_bit)
                r |= ~alu::width_mask(static_cast<int>(l));
        }
    } else if (ptx::is_signed(t)) {
        r = 0;
    }
    return r & alu::width_mask(bits);
}

uint64_t bit_field_insert(uint64_t a, uint64_t b, uint64_t pos, uint64_t len, Type t)
{
    int bits = bits_of(t);
    pos &= 0xff;
    len &= 0xff;
    if (len == 0 || pos >= static_cast<uint64_t>(bits))
        return b & alu::width_mask(bits);
    uint64_t field_mask = alu::width_mask(static_cast<int>(std::min<uint64_t>(len, 64))) << pos;
    return ((b & ~field_mask) | ((a << pos) & field_mask)) & alu::width_mask(bits);
}

uint64_t permute(uint64_t a, uint64_t b, uint64_t selector)
{
    uint64_t bytes = (a & 0xffffffffu) | ((b & 0xffffffffu) << 32);
    uint64_t r = 0;
    for (int i = 0; i < 4; ++i) {
        uint64_t sel = (selector >> (4 * i)) & 0xf;
        uint64_t byte = (bytes >> ((sel & 7) * 8)) & 0xff;
        if (sel & 8)
            byte = (byte & 0x80) ? 0xff : 0;  // replicate the sign bit
        r |= byte << (8 * i);
    }
    return r;
}

// lop3: each bit of d is the bit of the truth table that the bits of a, b and c select (a the
// most significant), so that the table of a function f is f(0xF0, 0xCC, 0xAA).
uint64_t look_up3(uint64_t a, uint64_t b, uint64_t c, uint64_t table)
{
    uint64_t r = 0;
    for (int row = 0; row < 8; ++row) {
        if (((table >> row) & 1) == 0)
            continue;
        const uint64_t x = (row & 4) ? a : ~a, y = (row & 2) ? b : ~b, z = (row & 1) ? c : ~c;
        r |= x & y & z;
    }
    return r & 0xffffffffu;
}

// fns: the position of the n-th set bit of mask counted from base, upwards for a positive offset
// and downwards for a negative one (offset 0: base itself if set); 0xffffffff if there is none.
uint64_t find_nth_set(uint64_t mask, uint64_t base, uint64_t offset)
{
    const int32_t n = static_cast<int32_t>(offset);
    int pos = static_cast<int>(base & 0xffffffffu);
    if (pos > 31)
        return 0xffffffffu;  // undefined in PTX
    if (n == 0)
        return ((mask >> pos) & 1) ? static_cast<uint64_t>(pos) : 0xffffffffu;
    const int step = n > 0 ? 1 : -1;
    int64_t left = n > 0 ? n : -static_cast<int64_t>(n);
    for (; pos >= 0 && pos < 32; pos += step)
        if (((mask >> pos) & 1) && --left == 0)
            return static_cast<uint64_t>(pos);
    return 0xffffffffu;
}

// min/max with .NaN (a NaN operand gives the canonical NaN instead of the other operand) or .relu
// (a negative result becomes zero) on s32 and f32 (the 16-bit floats' are exec/arithmetic/half_precision.cpp's).
void min_max_with_modes(Warp& w, const Instr& in, uint32_t exec, uint64_t clk, const ptx::Kernel& kernel)
{
    const bool is_max = in.op == Op::Max, nan = in.mode & ptx::MinMaxNaN, relu = in.mode & ptx::MinMaxRelu;
    if (in.type == Type::S32 && !nan) {
        lanewise<2>(w, in, exec, clk, [is_max](uint64_t a, uint64_t b) {
            const int32_t x = static_cast<int32_t>(a), y = static_cast<int32_t>(b);
            return static_cast<uint64_t>(static_cast<uint32_t>(std::max(is_max ? std::max(x, y) : std::min(x, y), 0)));
        });
        return;
    }
    if (in.type != Type::F32)
        throw_unsupported(in, kernel, "type for min/max with .NaN or .relu");
    lanewise<2>(w, in, exec, clk, [is_max, nan, relu](uint64_t a, uint64_t b) {
        const float x = alu::f32(a), y = alu::f32(b);
        if (std::isnan(x) || std::isnan(y)) {
            if (nan || (std::isnan(x) && std::isnan(y)))
                return uint64_t{0x7fffffffu};
        }
        float r = std::isnan(x) ? y : std::isnan(y) ? x : is_max ? std::fmax(x, y) : std::fmin(x, y);
        if (x == 0 && y == 0)  // -0 is less than +0
            r = (std::signbit(x) == is_max) ? y : x;
        if (relu && (r < 0 || (r == 0 && std::signbit(r))))
            r = 0.0f;
        return alu::canonical_bits(r);
    });
}

// Compares all lanes with the mode chosen once, outside the lane loop.
template <class T, class Cmp>
void compare_lanes(const uint64_t* a, const uint64_t* b, uint64_t* r, Cmp cmp)
{
    for (int l = 0; l < kWarpSize; ++l) {
        T x, y;
        if constexpr (std::is_same_v<T, float>) {
            x = alu::f32(a[l]);
            y = alu::f32(b[l]);
        } else if constexpr (std::is_same_v<T, double>) {
            x = alu::f64(a[l]);
            y = alu::f64(b[l]);
        } else {
            x = static_cast<T>(a[l]);
            y = static_cast<T>(b[l]);
        }
        r[l] = cmp(x, y) ? 1 : 0;
    }
}

template <class T>
void compare_typed(const uint64_t* a, const uint64_t* b, uint64_t* r, uint8_t mode)
{
    switch (mode) {
    case ptx::CmpEq:
        compare_lanes<T>(a, b, r, [](T x, T y) { return x == y; });
        return;
    case ptx::CmpNe:
        compare_lanes<T>(a, b, r, [](T x, T y) { return x != y && x == x && y == y; });
        return;
    case ptx::CmpLt:
        compare_lanes<T>(a, b, r, [](T x, T y) { return x < y; });
        return;
    case ptx::CmpLe:
        compare_lanes<T>(a, b, r, [](T x, T y) { return x <= y; });
        return;
    case ptx::CmpGt:
        compare_lanes<T>(a, b, r, [](T x, T y) { return x > y; });
        return;
    case ptx::CmpGe:
        compare_lanes<T>(a, b, r, [](T x, T y) { return x >= y; });
        return;
    default:
        compare_lanes<T>(a, b, r, [mode](T x, T y) { return alu::compare_float(x, y, mode); });
        return;
    }
}

// 1 or 0 in each lane: a compared with b as values of type t (ops[2] and ops[3] of setp and set).
void compare_operands(Warp& w, const Instr& in, Type t, uint64_t clk, uint64_t* d)
{
    Lanes s0, s1;
    const uint64_t* a = source(w, in.ops[2], s0, clk);
    const uint64_t* b = source(w, in.ops[3], s1, clk);
    switch (t) {
    case Type::F16:
    case Type::BF16: {
        Lanes fa, fb;  // widen to f32, which compares identically
        for (int l = 0; l < kWarpSize; ++l) {
            fa[l] = alu::bits(alu::narrow_float(a[l], t));
            fb[l] = alu::bits(alu::narrow_float(b[l], t));
        }
        compare_typed<float>(fa, fb, d, in.mode);
        break;
    }
    case Type::F32:
        if (in.ftz) {
            Lanes fa, fb;
            for (int l = 0; l < kWarpSize; ++l) {
                fa[l] = alu::flushed_bits(a[l], true);
                fb[l] = alu::flushed_bits(b[l], true);
            }
            compare_typed<float>(fa, fb, d, in.mode);
            break;
        }
        compare_typed<float>(a, b, d, in.mode);
        break;
    case Type::F64:
        compare_typed<double>(a, b, d, in.mode);
        break;
    case Type::S16:
        compare_typed<int16_t>(a, b, d, in.mode);
        break;
    case Type::U16:
    case Type::B16:
        compare_typed<uint16_t>(a, b, d, in.mode);
        break;
    case Type::S32:
        compare_typed<int32_t>(a, b, d, in.mode);
        break;
    case Type::U32:
    case Type::B32:
        compare_typed<uint32_t>(a, b, d, in.mode);
        break;
    case Type::S64:
        compare_typed<int64_t>(a, b, d, in.mode);
        break;
    default:
        compare_typed<uint64_t>(a, b, d, in.mode);
        break;
    }
}

// The .and/.or/.xor of setp and set: r combined with the predicate c (ops[4]), and the negated
// comparison combined with it, for setp's second destination.
void combine_with_predicate(Warp& w, const Instr& in, uint64_t clk, uint64_t* r, uint64_t* negated)
{
    Lanes s2;
    const uint64_t* c = in.bool_mode != ptx::BoolNone ? source(w, in.ops[4], s2, clk) : nullptr;
    for (int l = 0; l < kWarpSize; ++l) {
        uint64_t x = r[l], nx = x ^ 1;
        if (c) {
            uint64_t cv = c[l] & 1;
            switch (in.bool_mode) {
            case ptx::BoolAnd:
                x &= cv;
                nx &= cv;
                break;
            case ptx::BoolOr:
                x |= cv;
                nx |= cv;
                break;
            default:
                x ^= cv;
                nx ^= cv;
                break;
            }
        }
        r[l] = x;
        negated[l] = nx;
    }
}

void setp(Warp& w, const Instr& in, uint32_t exec, uint64_t clk, const ptx::Kernel& kernel)
{
    if (ptx::is_packed_float(in.type) || ptx::is_packed_integer(in.type))
        throw_unsupported(in, kernel, "type");
    // The common `setp.lt.s32 p, a, b` of a full warp compares straight into p.
    const bool plain = in.bool_mode == ptx::BoolNone && !in.has_pair_dest;
    Lanes temp, negated;
    if (plain && exec == 0xffffffffu && in.ops[0].kind == Operand::Kind::Reg) {
        compare_operands(w, in, in.type, clk, w.reg(in.ops[0].reg));
        return;
    }
    compare_operands(w, in, in.type, clk, temp);
    if (!plain)
        combine_with_predicate(w, in, clk, temp, negated);
    write_back(w, in.ops[0], temp, exec);
    if (in.has_pair_dest)
        write_back(w, in.ops[1], negated, exec);
}

// set.cmp.dtype.stype: the comparison as a value of dtype: all ones or 0 for an integer, 1.0 or 0.0
// for a float.
void set(Warp& w, const Instr& in, uint32_t exec, uint64_t clk, const ptx::Kernel& kernel)
{
    uint64_t one;
    switch (in.type) {
    case Type::U32:
    case Type::S32:
    case Type::B32:
        one = 0xffffffffu;
        break;
    case Type::F32:
        one = 0x3f800000u;
        break;
    case Type::F16:
        one = 0x3c00u;
        break;
    case Type::BF16:
        one = 0x3f80u;
        break;
    default:
        throw_unsupported(in, kernel, "destination type");
    }
    if (ptx::is_packed_float(in.src_type) || ptx::is_packed_integer(in.src_type))
        throw_unsupported(in, kernel, "source type");
    Lanes r, negated;
    compare_operands(w, in, in.src_type, clk, r);
    combine_with_predicate(w, in, clk, r, negated);
    for (int l = 0; l < kWarpSize; ++l)
        r[l] = r[l] ? one : 0;
    write_back(w, in.ops[0], r, exec);
}

// Extended-precision integer arithmetic through the per-lane carry flag.
void carry_arithmetic(Warp& w, const Instr& in, uint32_t exec, uint64_t clk)
{
    Lanes s0, s1, s2, d, carry;
    const uint64_t* a = source(w, in.ops[2], s0, clk);
    const uint64_t* b = source(w, in.ops[3], s1, clk);
    const uint64_t* c = in.op == Op::Mad ? source(w, in.ops[4], s2, clk) : a;
    const uint64_t* cf = w.reg(ptx::SrCarry);
    int bits = bits_of(in.type);
    uint64_t wm = alu::width_mask(bits);
    for (int l = 0; l < kWarpSize; ++l) {
        unsigned __int128 carry_in = in.carry_in ? (cf[l] & 1) : 0;
        unsigned __int128 x = a[l] & wm, y = b[l] & wm, r;
        if (in.op == Op::Sub) {
            unsigned __int128 subtrahend = y + carry_in;
            d[l] = static_cast<uint64_t>(x - subtrahend) & wm;
            carry[l] = x < subtrahend ? 1 : 0;
            continue;
        }
        if (in.op == Op::Mad) {
            __int128 product = ptx::is_signed(in.type)
                                   ? static_cast<__int128>(alu::sign_extend(a[l], bits)) * alu::sign_extend(b[l], bits)
                                   : static_cast<__int128>(x * y);
            unsigned __int128 part = static_cast<unsigned __int128>(product);
            part = in.mode == ptx::MulHi ? (part >> bits) & wm : part & wm;
            r = part + (c[l] & wm) + carry_in;
        } else {
            r = x + y + carry_in;
        }
        d[l] = static_cast<uint64_t>(r) & wm;
        carry[l] = static_cast<uint64_t>(r >> bits) & 1;
    }
    write_back(w, in.ops[0], d, exec);
    if (in.carry_out) {
        Operand flag;
        flag.kind = Operand::Kind::Reg;
        flag.reg = ptx::SrCarry;
        write_back(w, flag, carry, exec);
    }
}

}  // namespace

[[noreturn]] void throw_unsupported(const Instr& in, const ptx::Kernel& kernel, const char* what)
{
    throw DeviceFault(cudaErrorIllegalInstruction, std::string("unsupported ") + what + " for '" + ptx::op_name(in.op) +
                                                       "' in kernel " + demangle(kernel.name) + " at " +
                                                       ptx::source_position(kernel, in));
}

namespace {

// .rz, .rm and .rp on a floating-point operation or a conversion to floating point: the host rounds
// the lanes' operations the same way while the instruction runs. This file is compiled with
// -frounding-math, so the compiler neither folds nor moves them across the mode's change.
class DirectedRounding {
public:
    explicit DirectedRounding(const Instr& in)
    {
        if (!ptx::is_float(in.type) || in.mode < ptx::RoundRz || in.mode > ptx::RoundRp)
            return;
        switch (in.op) {
        case Op::Add:
        case Op::Sub:
        case Op::Mul:
        case Op::Mad:
        case Op::Fma:
        case Op::Div:
        case Op::Rcp:
        case Op::Sqrt:
        case Op::Cvt:
            saved_ = std::fegetround();
            std::fesetround(in.mode == ptx::RoundRz   ? FE_TOWARDZERO
                            : in.mode == ptx::RoundRm ? FE_DOWNWARD
                                                      : FE_UPWARD);
            break;
        default:
            break;
        }
    }
    ~DirectedRounding()
    {
        if (saved_ >= 0)
            std::fesetround(saved_);
    }
    DirectedRounding(const DirectedRounding&) = delete;
    DirectedRounding& operator=(const DirectedRounding&) = delete;

private:
    int saved_ = -1;
};

}  // namespace

void execute_arithmetic(Warp& w, const Instr& in, uint32_t exec, uint64_t clk, const ptx::Kernel& kernel)
{
    const Type t = in.type;
    const DirectedRounding rounding(in);
    if ((in.carry_in || in.carry_out) && !ptx::is_float(t)) {
        carry_arithmetic(w, in, exec, clk);
        return;
    }
    if (ptx::is_packed_integer(t) || in.op == Op::Dp2a || in.op == Op::Vabsdiff4) {
        execute_packed_integer(w, in, exec, clk, kernel);
        return;
    }
    // 16-bit floats: their arithmetic has a file of its own; cvt, setp, set, mov and selp take them
    // here, and nothing else does.
    if (ptx::is_half_precision(t) && in.op != Op::Cvt && in.op != Op::Setp && in.op != Op::Set && in.op != Op::Mov &&
        in.op != Op::Selp) {
        if (!is_half_precision_operation(in.op))
            throw_unsupported(in, kernel, "16-bit floating-point type");
        execute_half_precision(w, in, exec, clk);
        return;
    }
    switch (in.op) {
    case Op::Mov: {
        const Operand& d = in.ops[0];
        const Operand& s = in.ops[2];
        if (s.kind == Operand::Kind::Vec) {  // pack {a, b} into one register
            int part = bits_of(t) / s.count;
            Lanes r{};
            for (int i = 0; i < s.count; ++i) {
                const uint64_t* v = w.reg(s.vec[i]);
                for (int l = 0; l < kWarpSize; ++l)
                    r[l] |= (v[l] & alu::width_mask(part)) << (part * i);
            }
            write_back(w, d, r, exec);
        } else if (d.kind == Operand::Kind::Vec) {  // unpack one register into {a, b}
            int part = bits_of(t) / d.count;
            Lanes scratch, r;
            const uint64_t* v = source(w, s, scratch, clk);
            for (int i = 0; i < d.count; ++i) {
                if (d.vec[i] == Operand::kNoReg)
                    continue;
                for (int l = 0; l < kWarpSize; ++l)
                    r[l] = (v[l] >> (part * i)) & alu::width_mask(part);
                Operand one;
                one.kind = Operand::Kind::Reg;
                one.reg = d.vec[i];
                write_back(w, one, r, exec);
            }
        } else {
            uint64_t wm = t == Type::None ? ~0ull : alu::width_mask(t == Type::Pred ? 1 : bits_of(t));
            lanewise<1>(w, in, exec, clk, [wm](uint64_t a) { return a & wm; });
        }
        break;
    }
    case Op::Cvta: {
        uint64_t window = in.space == ptx::Space::Shared  ? kSharedWindow
                          : in.space == ptx::Space::Local ? kLocalWindow
                                                          : 0;
        lanewise<1>(w, in, exec, clk, [window](uint64_t a) { return a + window; });
        break;
    }
    case Op::CvtaTo: {
        bool strip = in.space == ptx::Space::Shared || in.space == ptx::Space::Local;
        uint64_t wm = alu::width_mask(bits_of(t));
        lanewise<1>(w, in, exec, clk, [strip, wm](uint64_t a) { return (strip ? a & ~kWindowMask : a) & wm; });
        break;
    }
    case Op::Isspacep: {
        // A generic address is in the window of the space it points to (exec/scheduling/launch_context.hpp);
        // anything outside the shared and local windows is global memory.
        if (in.space != ptx::Space::Global && in.space != ptx::Space::Shared && in.space != ptx::Space::Local)
            throw_unsupported(in, kernel, "isspacep of this state space");
        const uint64_t window = in.space == ptx::Space::Shared  ? kSharedWindow
                                : in.space == ptx::Space::Local ? kLocalWindow
                                                                : 0;
        lanewise<1>(w, in, exec, clk, [window](uint64_t a) -> uint64_t { return (a & kWindowMask) == window; });
        break;
    }
    case Op::Cvt:
        convert(w, in, exec, clk, kernel);
        break;
    case Op::Add:
        arith2(
            w, in, exec, clk, [](auto a, auto b) { return wrapping(a, b, std::plus<>()); },
            [](auto a, auto b) { return a + b; });
        break;
    case Op::Sub:
        arith2(
            w, in, exec, clk, [](auto a, auto b) { return wrapping(a, b, std::minus<>()); },
            [](auto a, auto b) { return a - b; });
        break;
    case Op::Mul:
        mul_family(w, in, exec, clk, false);
        break;
    case Op::Mad:
    case Op::Fma:
        mul_family(w, in, exec, clk, true);
        break;
    case Op::Div:
        if (divide_by_uniform_power_of_two(w, in, exec, clk))
            break;
        arith2(
            w, in, exec, clk, [](auto a, auto b) { return int_div(a, b); }, [](auto a, auto b) { return a / b; });
        break;
    case Op::Rem:
        if (divide_by_uniform_power_of_two(w, in, exec, clk))
            break;
        arith2(
            w, in, exec, clk, [](auto a, auto b) { return int_rem(a, b); }, [](auto a, auto) { return a; });
        break;
    case Op::Min:
        if (in.mode != ptx::MinMaxPlain) {
            min_max_with_modes(w, in, exec, clk, kernel);
            break;
        }
        arith2(
            w, in, exec, clk, [](auto a, auto b) { return a < b ? a : b; },
            [](auto a, auto b) { return a == 0 && b == 0 ? (std::signbit(a) ? a : b) : std::fmin(a, b); });
        break;
    case Op::Max:
        if (in.mode != ptx::MinMaxPlain) {
            min_max_with_modes(w, in, exec, clk, kernel);
            break;
        }
        arith2(
            w, in, exec, clk, [](auto a, auto b) { return a > b ? a : b; },
            [](auto a, auto b) { return a == 0 && b == 0 ? (std::signbit(a) ? b : a) : std::fmax(a, b); });
        break;
    case Op::Abs:
    case Op::Neg: {
        bool neg = in.op == Op::Neg;
        if (t == Type::F32)
            lanewise<1>(w, in, exec, clk,
                        [neg](uint64_t a) { return alu::bits(neg ? -alu::f32(a) : std::fabs(alu::f32(a))); });
        else if (t == Type::F64)
            lanewise<1>(w, in, exec, clk,
                        [neg](uint64_t a) { return alu::bits(neg ? -alu::f64(a) : std::fabs(alu::f64(a))); });
        else {
            uint64_t wm = alu::width_mask(bits_of(t));
            lanewise<1>(w, in, exec, clk, [neg, wm, t](uint64_t a) {
                int64_t v = static_cast<int64_t>(alu::normalize(a, t));
                return static_cast<uint64_t>(neg ? -v : (v < 0 ? -v : v)) & wm;
            });
        }
        break;
    }
    case Op::And:
        lanewise<2>(w, in, exec, clk, [](uint64_t a, uint64_t b) { return a & b; });
        break;
    case Op::Or:
        lanewise<2>(w, in, exec, clk, [](uint64_t a, uint64_t b) { return a | b; });
        break;
    case Op::Xor:
        lanewise<2>(w, in, exec, clk, [](uint64_t a, uint64_t b) { return a ^ b; });
        break;
    case Op::Not: {
        uint64_t wm = t == Type::Pred ? 1 : alu::width_mask(bits_of(t));
        lanewise<1>(w, in, exec, clk, [wm](uint64_t a) { return ~a & wm; });
        break;
    }
    case Op::Cnot: {
        uint64_t wm = alu::width_mask(bits_of(t));
        lanewise<1>(w, in, exec, clk, [wm](uint64_t a) { return (a & wm) == 0 ? 1ull : 0ull; });
        break;
    }
    case Op::Shl: {
        int bits = bits_of(t);
        if (in.ops[3].kind == Operand::Kind::Imm && static_cast<uint64_t>(in.ops[3].imm & 0xffffffff) < 64) {
            // A constant shift: the same count for every lane, which the compiler vectorises.
            const uint64_t n = static_cast<uint64_t>(in.ops[3].imm & 0xffffffff), wm = alu::width_mask(bits);
            lanewise<1>(w, in, exec, clk, [n, wm](uint64_t a) { return (a << n) & wm; });
            break;
        }
        lanewise<2>(w, in, exec, clk, [bits](uint64_t a, uint64_t b) {
            uint64_t s = b & 0xffffffffu;
            return s >= static_cast<uint64_t>(bits) ? 0 : (a << s) & alu::width_mask(bits);
        });
        break;
    }
    case Op::Shr: {
        int bits = bits_of(t);
        bool sign = ptx::is_signed(t);
        if (!sign && in.ops[3].kind == Operand::Kind::Imm && static_cast<uint64_t>(in.ops[3].imm & 0xffffffff) < 64) {
            const uint64_t n = static_cast<uint64_t>(in.ops[3].imm & 0xffffffff), wm = alu::width_mask(bits);
            lanewise<1>(w, in, exec, clk, [n, wm](uint64_t a) { return (a & wm) >> n; });
            break;
        }
        lanewise<2>(w, in, exec, clk, [bits, sign, t](uint64_t a, uint64_t b) {
            uint64_t s = std::min<uint64_t>(b & 0xffffffffu, static_cast<uint64_t>(bits));
            if (sign) {
                int64_t v = static_cast<int64_t>(alu::normalize(a, t));
                return static_cast<uint64_t>(v >> std::min<uint64_t>(s, 63)) & alu::width_mask(bits);
            }
            return s >= static_cast<uint64_t>(bits) ? 0 : (a & alu::width_mask(bits)) >> s;
        });
        break;
    }
    case Op::Selp:
        lanewise<3>(w, in, exec, clk, [](uint64_t a, uint64_t b, uint64_t c) { return (c & 1) ? a : b; });
        break;
    case Op::Setp:
        setp(w, in, exec, clk, kernel);
        break;
    case Op::Set:
        set(w, in, exec, clk, kernel);
        break;
    case Op::Slct: {
        Type ct = in.src_type == Type::None ? Type::S32 : in.src_type;
        lanewise<3>(w, in, exec, clk, [ct](uint64_t a, uint64_t b, uint64_t c) {
            bool ge = ct == Type::F32 ? alu::f32(c) >= 0.0f : static_cast<int32_t>(c) >= 0;
            return ge ? a : b;
        });
        break;
    }
    case Op::Popc: {
        uint64_t wm = alu::width_mask(bits_of(t));
        lanewise<1>(w, in, exec, clk, [wm](uint64_t a) { return alu::popcount(a & wm); });
        break;
    }
    case Op::Clz: {
        int bits = bits_of(t);
        lanewise<1>(w, in, exec, clk, [bits](uint64_t a) {
            uint64_t v = a & alu::width_mask(bits);
            return static_cast<uint64_t>(std::countl_zero(v) - (64 - bits));
        });
        break;
    }
    case Op::Brev: {
        int bits = bits_of(t);
        lanewise<1>(w, in, exec, clk, [bits](uint64_t a) {
            uint64_t r = 0;
            for (int i = 0; i < bits; ++i)
                r |= ((a >> i) & 1) << (bits - 1 - i);
            return r;
        });
        break;
    }
    case Op::Bfind: {
        int bits = bits_of(t);
        bool shift_amount = in.mode == ptx::BfindShiftAmount;
        lanewise<1>(w, in, exec, clk, [bits, t, shift_amount](uint64_t a) {
            uint64_t v = a & alu::width_mask(bits);
            if (ptx::is_signed(t) && ((v >> (bits - 1)) & 1))
                v = ~v & alu::width_mask(bits);
            if (v == 0)
                return uint64_t{0xffffffffu};
            uint64_t index = static_cast<uint64_t>(63 - std::countl_zero(v));
            return shift_amount ? static_cast<uint64_t>(bits - 1) - index : index;
        });
        break;
    }
    case Op::Shf: {
        // Funnel shift of the 64-bit value b:a.
        bool left = in.mode & ptx::ShfLeft, clamp = in.mode & ptx::ShfClamp;
        lanewise<3>(w, in, exec, clk, [left, clamp](uint64_t a, uint64_t b, uint64_t c) {
            uint64_t n = clamp ? std::min<uint64_t>(c & 0xffffffffu, 32) : (c & 31);
            uint64_t joined = ((b & 0xffffffffu) << 32) | (a & 0xffffffffu);
            return left ? ((joined << n) >> 32) & 0xffffffffu : (joined >> n) & 0xffffffffu;
        });
        break;
    }
    case Op::Sad: {  // c + |a - b|
        bool sign = ptx::is_signed(t);
        uint64_t wm = alu::width_mask(bits_of(t));
        lanewise<3>(w, in, exec, clk, [sign, wm, t](uint64_t a, uint64_t b, uint64_t c) {
            uint64_t x = alu::normalize(a, t), y = alu::normalize(b, t);
            bool less = sign ? static_cast<int64_t>(x) < static_cast<int64_t>(y) : x < y;
            return (c + (less ? y - x : x - y)) & wm;
        });
        break;
    }
    case Op::Dp4a: {  // c + dot product of the four byte pairs
        bool sign_a = ptx::is_signed(in.src_type), sign_b = ptx::is_signed(t);
        lanewise<3>(w, in, exec, clk, [sign_a, sign_b](uint64_t a, uint64_t b, uint64_t c) {
            int64_t sum = static_cast<int32_t>(c);
            for (int i = 0; i < 4; ++i) {
                uint64_t x = (a >> (8 * i)) & 0xff, y = (b >> (8 * i)) & 0xff;
                int64_t xv = sign_a ? alu::sign_extend(x, 8) : static_cast<int64_t>(x);
                int64_t yv = sign_b ? alu::sign_extend(y, 8) : static_cast<int64_t>(y);
                sum += xv * yv;
            }
            return static_cast<uint64_t>(sum) & 0xffffffffu;
        });
        break;
    }
    case Op::Bfe:
        lanewise<3>(w, in, exec, clk,
                    [t](uint64_t a, uint64_t b, uint64_t c) { return bit_field_extract(a, b, c, t); });
        break;
    case Op::Bfi:
        lanewise<4>(w, in, exec, clk,
                    [t](uint64_t a, uint64_t b, uint64_t c, uint64_t d) { return bit_field_insert(a, b, c, d, t); });
        break;
    case Op::Prmt:
        lanewise<3>(w, in, exec, clk, permute);
        break;
    case Op::Lop3:
        if (in.num_ops != 6 || in.has_pair_dest)
            throw_unsupported(in, kernel, "form (with a predicate)");
        lanewise<4>(w, in, exec, clk,
                    [](uint64_t a, uint64_t b, uint64_t c, uint64_t table) { return look_up3(a, b, c, table); });
        break;
    case Op::Fns:
        lanewise<3>(w, in, exec, clk, find_nth_set);
        break;
    case Op::Rcp:
        float_unary(
            w, in, exec, clk, kernel, [](float a) { return 1.0f / a; }, [](double a) { return 1.0 / a; });
        break;
    case Op::Sqrt:
        float_unary(
            w, in, exec, clk, kernel, [](float a) { return std::sqrt(a); }, [](double a) { return std::sqrt(a); });
        break;
    case Op::Rsqrt:
        float_unary(
            w, in, exec, clk, kernel, [](float a) { return 1.0f / std::sqrt(a); },
            [](double a) { return 1.0 / std::sqrt(a); });
        break;
    case Op::Ex2:
        float_unary(
            w, in, exec, clk, kernel, [](float a) { return std::exp2(a); }, [](double a) { return std::exp2(a); });
        break;
    case Op::Lg2:
        float_unary(
            w, in, exec, clk, kernel, [](float a) { return std::log2(a); }, [](double a) { return std::log2(a); });
        break;
    case Op::Sin:
        float_unary(
            w, in, exec, clk, kernel, [](float a) { return std::sin(a); }, [](double a) { return std::sin(a); });
        break;
    case Op::Cos:
        float_unary(
            w, in, exec, clk, kernel, [](float a) { return std::cos(a); }, [](double a) { return std::cos(a); });
        break;
    case Op::Tanh:
        float_unary(
            w, in, exec, clk, kernel, [](float a) { return std::tanh(a); }, [](double a) { return std::tanh(a); });
        break;
    case Op::Copysign:
        arith2(
            w, in, exec, clk, [](auto a, auto) { return a; }, [](auto a, auto b) { return std::copysign(b, a); });
        break;
    default:
        throw_unsupported(in, kernel, "operation");
    }
}

}  // namespace cudasim
