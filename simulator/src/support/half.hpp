// IEEE half precision in plain integer arithmetic: every host compiler the course supports builds
// it (clang 14 has no _Float16 on x86-64), and it rounds as PTX's cvt does, in the host's current
// rounding mode (the interpreter sets it for .rz, .rm and .rp).
#pragma once

#include <bit>
#include <cfenv>
#include <cstdint>

namespace cudasim::half {

// The float a half's bits stand for (exact: every half is a float).
inline float toFloat(uint16_t h)
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

// d rounded once to a half (as cvt.f16.f64 does), in the host's current rounding mode: to nearest
// (ties to even), toward zero, down or up. Beyond the largest half: infinity, or the largest finite
// half where the mode rounds toward zero. A NaN stays a quiet NaN with the payload's top bits.
inline uint16_t fromDouble(double d)
{
    const uint64_t b = std::bit_cast<uint64_t>(d);
    const uint16_t sign = static_cast<uint16_t>((b >> 48) & 0x8000u);
    const int exponent = static_cast<int>((b >> 52) & 0x7ff);
    const uint64_t fraction = b & ((uint64_t{1} << 52) - 1);
    if (exponent == 0x7ff)
        return static_cast<uint16_t>(sign | 0x7c00u | (fraction ? 0x200u | (fraction >> 42) : 0u));
    const int mode = std::fegetround();
    // Whether a discarded non-zero remainder makes the magnitude one ulp larger, outside ties.
    const bool away = mode == FE_UPWARD ? sign == 0 : mode == FE_DOWNWARD && sign != 0;
    if (exponent == 0)  // zero, or a double subnormal: far below half's smallest
        return static_cast<uint16_t>(sign | (fraction != 0 && away ? 1u : 0u));
    // d = significand x 2^(unbiased - 52), significand in [2^52, 2^53).
    const uint64_t significand = fraction | (uint64_t{1} << 52);
    const int unbiased = exponent - 1023;
    // The half's ulp is 2^(e - 10), e the half's exponent, at least -14 (subnormals share ulp 2^-24).
    const int e = unbiased < -14 ? -14 : unbiased;
    const int shift = 42 + (e - unbiased);  // significand / 2^shift = d / ulp
    if (shift >= 54)                        // below half an ulp of the smallest subnormal
        return static_cast<uint16_t>(sign | (away ? 1u : 0u));
    uint64_t ulps = significand >> shift;
    const uint64_t rest = significand & ((uint64_t{1} << shift) - 1);
    const uint64_t half_ulp = uint64_t{1} << (shift - 1);
    const bool up = mode == FE_TONEAREST ? rest > half_ulp || (rest == half_ulp && (ulps & 1)) : rest != 0 && away;
    if (up)
        ++ulps;
    if (ulps < 0x400u)
        return static_cast<uint16_t>(sign | ulps);  // subnormal
    int field = e + 15;
    if (ulps == 0x800u) {  // rounding carried into the next exponent
        ulps = 0x400u;
        ++field;
    }
    if (field >= 31)
        return static_cast<uint16_t>(sign | (mode == FE_TONEAREST || away ? 0x7c00u : 0x7bffu));
    return static_cast<uint16_t>(sign | (field << 10) | (ulps - 0x400u));
}

}  // namespace cudasim::half
