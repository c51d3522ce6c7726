// IEEE half precision in plain integer arithmetic: every host compiler the course supports builds
// it (clang 14 has no _Float16 on x86-64), and it rounds as PTX's cvt.rn does.
#pragma once

#include <bit>
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

// The half nearest to d, ties to even, rounded once from the double (as cvt.rn.f16.f64 does);
// beyond the largest half, infinity; a NaN stays a quiet NaN with the payload's top bits.
inline uint16_t fromDouble(double d)
{
    const uint64_t b = std::bit_cast<uint64_t>(d);
    const uint16_t sign = static_cast<uint16_t>((b >> 48) & 0x8000u);
    const int exponent = static_cast<int>((b >> 52) & 0x7ff);
    const uint64_t fraction = b & ((uint64_t{1} << 52) - 1);
    if (exponent == 0x7ff)
        return static_cast<uint16_t>(sign | 0x7c00u | (fraction ? 0x200u | (fraction >> 42) : 0u));
    if (exponent == 0)
        return sign;  // zero, or a double subnormal: far below half's smallest
    // d = significand x 2^(unbiased - 52), significand in [2^52, 2^53).
    const uint64_t significand = fraction | (uint64_t{1} << 52);
    const int unbiased = exponent - 1023;
    // The half's ulp is 2^(e - 10), e the half's exponent, at least -14 (subnormals share ulp 2^-24).
    const int e = unbiased < -14 ? -14 : unbiased;
    const int shift = 42 + (e - unbiased);  // significand / 2^shift = d / ulp
    if (shift >= 54)
        return sign;  // below half an ulp of the smallest subnormal
    uint64_t ulps = significand >> shift;
    const uint64_t rest = significand & ((uint64_t{1} << shift) - 1);
    const uint64_t half_ulp = uint64_t{1} << (shift - 1);
    if (rest > half_ulp || (rest == half_ulp && (ulps & 1)))
        ++ulps;
    if (ulps < 0x400u)
        return static_cast<uint16_t>(sign | ulps);  // subnormal
    int field = e + 15;
    if (ulps == 0x800u) {  // rounding carried into the next exponent
        ulps = 0x400u;
        ++field;
    }
    if (field >= 31)
        return static_cast<uint16_t>(sign | 0x7c00u);
    return static_cast<uint16_t>(sign | (field << 10) | (ulps - 0x400u));
}

}  // namespace cudasim::half
