// Scalar semantics of PTX arithmetic on the 64-bit lane values the
// register file holds (narrow values live in the low bits).
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "ptx/ir.hpp"
#include "support/half.hpp"

namespace cudasim::alu {

using ptx::Type;

inline float f32(uint64_t v)
{
    return std::bit_cast<float>(static_cast<uint32_t>(v));
}
// Half precision: support/half.hpp rounds to nearest even like cvt.rn.
inline float f16(uint64_t v)
{
    return half::to_float(static_cast<uint16_t>(v));
}
inline uint64_t half_bits(double d)
{
    return half::from_double(d);
}
inline float bf16(uint64_t v)
{
    return half::bfloat_to_float(static_cast<uint16_t>(v));
}
inline uint64_t bfloat_bits(double d)
{
    return half::bfloat_from_double(d);
}
// A 16-bit float of type t (F16 or BF16), and d rounded to one.
inline float narrow_float(uint64_t v, ptx::Type t)
{
    return t == ptx::Type::BF16 ? bf16(v) : f16(v);
}
inline uint64_t narrow_bits(double d, ptx::Type t)
{
    return t == ptx::Type::BF16 ? bfloat_bits(d) : half_bits(d);
}
inline double f64(uint64_t v)
{
    return std::bit_cast<double>(v);
}
inline uint64_t bits(float f)
{
    return std::bit_cast<uint32_t>(f);
}
// The result of a 32-bit floating-point operation: a GPU gives every NaN it computes as 0x7fffffff.
inline uint64_t canonical_bits(float f)
{
    return f != f ? 0x7fffffffu : std::bit_cast<uint32_t>(f);
}
// .ftz: a subnormal float reads, and is written, as a zero of the same sign.
inline float flush_subnormal(float f)
{
    return std::fpclassify(f) == FP_SUBNORMAL ? std::copysign(0.0f, f) : f;
}
// The bits of an f32 operand, flushed where the instruction has .ftz.
inline uint64_t flushed_bits(uint64_t v, bool ftz)
{
    return ftz ? std::bit_cast<uint32_t>(flush_subnormal(f32(v))) : v;
}
inline uint64_t bits(double d)
{
    return std::bit_cast<uint64_t>(d);
}

inline uint64_t width_mask(int bits)
{
    return bits >= 64 ? ~0ull : (1ull << bits) - 1;
}
inline int64_t sign_extend(uint64_t v, int bits)
{
    return bits >= 64 ? static_cast<int64_t>(v) : static_cast<int64_t>(v << (64 - bits)) >> (64 - bits);
}

// The value of a register as an integer of type t: masked or sign-extended.
inline uint64_t normalize(uint64_t v, Type t)
{
    int b = ptx::type_bytes(t) * 8;
    return ptx::is_signed(t) ? static_cast<uint64_t>(sign_extend(v, b)) : (v & width_mask(b));
}

template <class F>
inline bool compare_float(F a, F b, uint8_t mode)
{
    bool nan = std::isnan(a) || std::isnan(b);
    switch (mode) {
    case ptx::CmpEq:
        return !nan && a == b;
    case ptx::CmpNe:
        return !nan && a != b;
    case ptx::CmpLt:
        return !nan && a < b;
    case ptx::CmpLe:
        return !nan && a <= b;
    case ptx::CmpGt:
        return !nan && a > b;
    case ptx::CmpGe:
        return !nan && a >= b;
    case ptx::CmpEqu:
        return nan || a == b;
    case ptx::CmpNeu:
        return nan || a != b;
    case ptx::CmpLtu:
        return nan || a < b;
    case ptx::CmpLeu:
        return nan || a <= b;
    case ptx::CmpGtu:
        return nan || a > b;
    case ptx::CmpGeu:
        return nan || a >= b;
    case ptx::CmpNum:
        return !nan;
    case ptx::CmpNan:
        return nan;
    }
    return false;
}

template <class I>
inline bool compare_int(I a, I b, uint8_t mode)
{
    switch (mode) {
    case ptx::CmpEq:
        return a == b;
    case ptx::CmpNe:
        return a != b;
    case ptx::CmpLt:
        return a < b;
    case ptx::CmpLe:
        return a <= b;
    case ptx::CmpGt:
        return a > b;
    case ptx::CmpGe:
        return a >= b;
    default:
        return false;
    }
}

inline bool compare(uint64_t a, uint64_t b, Type t, uint8_t mode)
{
    if (t == Type::F32)
        return compare_float(f32(a), f32(b), mode);
    if (t == Type::F64)
        return compare_float(f64(a), f64(b), mode);
    a = normalize(a, t);
    b = normalize(b, t);
    if (ptx::is_signed(t))
        return compare_int(static_cast<int64_t>(a), static_cast<int64_t>(b), mode);
    return compare_int(a, b, mode);
}

// Rounds a floating value to an integral value per a cvt rounding mode.
inline double round_integral(double v, uint8_t mode)
{
    switch (mode) {
    case ptx::RoundRzi:
    case ptx::RoundRz:
        return std::trunc(v);
    case ptx::RoundRmi:
    case ptx::RoundRm:
        return std::floor(v);
    case ptx::RoundRpi:
    case ptx::RoundRp:
        return std::ceil(v);
    default:
        return std::nearbyint(v);  // round to nearest even
    }
}

// Float to integer: rounds, then saturates as PTX cvt does (NaN gives 0).
inline uint64_t float_to_int(double v, Type to, uint8_t mode)
{
    int b = ptx::type_bytes(to) * 8;
    if (std::isnan(v))
        return 0;
    v = round_integral(v, mode);
    if (ptx::is_signed(to)) {
        double lo = -std::ldexp(1.0, b - 1), hi = std::ldexp(1.0, b - 1) - 1;
        int64_t r = v <= lo   ? static_cast<int64_t>(lo)
                    : v >= hi ? (b == 64 ? std::numeric_limits<int64_t>::max() : static_cast<int64_t>(hi))
                              : static_cast<int64_t>(v);
        return static_cast<uint64_t>(r) & width_mask(b);
    }
    double hi = std::ldexp(1.0, b) - 1;
    if (v <= 0)
        return 0;
    if (v >= hi)
        return b == 64 ? ~0ull : static_cast<uint64_t>(hi);
    return static_cast<uint64_t>(v);
}

// Integer to integer conversion with optional saturation.
inline uint64_t int_to_int(uint64_t v, Type from, Type to, bool sat)
{
    uint64_t x = normalize(v, from);
    int b = ptx::type_bytes(to) * 8;
    if (sat) {
        if (ptx::is_signed(to)) {
            int64_t lo = -(int64_t{1} << (b - 1)),
                    hi = b == 64 ? std::numeric_limits<int64_t>::max() : (int64_t{1} << (b - 1)) - 1;
            if (ptx::is_signed(from)) {
                int64_t s = static_cast<int64_t>(x);
                s = s < lo ? lo : s > hi ? hi : s;
                return static_cast<uint64_t>(s) & width_mask(b);
            }
            return (x > static_cast<uint64_t>(hi) ? static_cast<uint64_t>(hi) : x) & width_mask(b);
        }
        if (ptx::is_signed(from) && static_cast<int64_t>(x) < 0)
            return 0;
        return x > width_mask(b) ? width_mask(b) : x;
    }
    // Widening keeps the source's sign; narrowing truncates.
    return x & width_mask(b);
}

inline uint64_t popcount(uint64_t v)
{
    return static_cast<uint64_t>(std::popcount(v));
}

}  // namespace cudasim::alu
