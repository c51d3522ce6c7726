// IEEE half precision and bfloat16 in plain integer arithmetic: every host compiler the course supports builds
// it (clang 14 has no _Float16 on x86-64), and it rounds as PTX's cvt does, in the host's current
// rounding mode (the interpreter sets it for .rz, .rm and .rp).
#pragma once

#include <bit>
#include <cfenv>
#include <cstdint>

namespace cudasim::half {

// The float a half's bits stand for (exact: every half is a float).
inline float to_float(uint16_t h)
{
    const uint32_t sign = uint32_t(h & 0x8000u) << 16;
    const uint32_t exponent = (h >> 10) & 0x1fu;
    const uint32_t mantissa = h & 0x3ffu;
    if (exponent == 0) {  // zero or subnormal: mantissa x 2^-24
        const float magnitude = static_cast<float>(mantissa) * 0x1p-24f;
        return sign ? -magnitude : magnitude;
    }
    if (exponent == 31)
        return std::bit_cast<float>(sign | 0x7f800000u | (mantissa << 13));  // inf, NaN
    return std::bit_cast<float>(sign | ((exponent + 112) << 23) | (mantissa << 13));
}

// d rounded once to a 16-bit float with kExponentBits exponent and kFractionBits fraction bits (as
// cvt.f16.f64 and cvt.bf16.f64 do), in the host's current rounding mode: to nearest (ties to even),
// toward zero, down or up. Beyond the largest finite value: infinity, or that value where the mode
// rounds toward zero. A NaN stays a quiet NaN with the payload's top bits.
template <int kExponentBits, int kFractionBits>
uint16_t narrow_from_double(double d)
{
    static_assert(1 + kExponentBits + kFractionBits == 16);
    constexpr int kBias = (1 << (kExponentBits - 1)) - 1;
    constexpr int kMinExponent = 1 - kBias;  // of the normal numbers; subnormals share its ulp
    constexpr int kMaxField = (1 << kExponentBits) - 1;
    constexpr uint32_t kInfinity = uint32_t{kMaxField} << kFractionBits;
    constexpr uint64_t kOne = uint64_t{1} << kFractionBits;  // the implicit bit, in ulps
    constexpr int kDropped = 52 - kFractionBits;             // fraction bits a double has beyond ours
    const uint64_t b = std::bit_cast<uint64_t>(d);
    const uint32_t sign = static_cast<uint32_t>((b >> 48) & 0x8000u);
    const int exponent = static_cast<int>((b >> 52) & 0x7ff);
    const uint64_t fraction = b & ((uint64_t{1} << 52) - 1);
    if (exponent == 0x7ff)
        return static_cast<uint16_t>(sign | kInfinity | (fraction ? (kOne >> 1) | (fraction >> kDropped) : 0u));
    const int mode = std::fegetround();
    // Whether a discarded non-zero remainder makes the magnitude one ulp larger, outside ties.
    const bool away = mode == FE_UPWARD ? sign == 0 : mode == FE_DOWNWARD && sign != 0;
    if (exponent == 0)  // zero, or a double subnormal: far below our smallest
        return static_cast<uint16_t>(sign | (fraction != 0 && away ? 1u : 0u));
    // d = significand x 2^(unbiased - 52), significand in [2^52, 2^53).
    const uint64_t significand = fraction | (uint64_t{1} << 52);
    const int unbiased = exponent - 1023;
    // Our ulp is 2^(e - kFractionBits), e our exponent, at least kMinExponent.
    const int e = unbiased < kMinExponent ? kMinExponent : unbiased;
    const int shift = kDropped + (e - unbiased);  // significand / 2^shift = d / ulp
    if (shift >= 54)                              // below half an ulp of the smallest subnormal
        return static_cast<uint16_t>(sign | (away ? 1u : 0u));
    uint64_t ulps = significand >> shift;
    const uint64_t rest = significand & ((uint64_t{1} << shift) - 1);
    const uint64_t half_ulp = uint64_t{1} << (shift - 1);
    const bool up = mode == FE_TONEAREST ? rest > half_ulp || (rest == half_ulp && (ulps & 1)) : rest != 0 && away;
    if (up)
        ++ulps;
    if (ulps < kOne)
        return static_cast<uint16_t>(sign | ulps);  // subnormal
    int field = e + kBias;
    if (ulps == 2 * kOne) {  // rounding carried into the next exponent
        ulps = kOne;
        ++field;
    }
    if (field >= kMaxField)
        return static_cast<uint16_t>(sign | (mode == FE_TONEAREST || away ? kInfinity : kInfinity - 1));
    return static_cast<uint16_t>(sign | (static_cast<uint32_t>(field) << kFractionBits) | (ulps - kOne));
}

// IEEE half precision (1 sign, 5 exponent, 10 fraction bits).
inline uint16_t from_double(double d)
{
    return narrow_from_double<5, 10>(d);
}

// bfloat16: the top half of a float (8 exponent, 7 fraction bits).
inline float bfloat_to_float(uint16_t h)
{
    return std::bit_cast<float>(uint32_t{h} << 16);
}
inline uint16_t bfloat_from_double(double d)
{
    return narrow_from_double<8, 7>(d);
}

}  // namespace cudasim::half
