#pragma once
/// @file float_sums.hpp
/// @brief Lesson 08: what a float sum is compared with. The reference sum (double precision, with
/// compensation), the rounding-error bound of a sum added in float, the lesson's float inputs, and
/// the orders of addition the demo shows on the host. Plain C++, shared by the demo and the grader.
///
/// The bound (README, "Floats"): a sum computed in float, in any order in which every element goes
/// through at most d additions, is within gamma_d * sum |x_i| of the exact sum, where
/// gamma_d = d u / (1 - d u) and u = 2^-24 is float's unit roundoff (Higham, *Accuracy and
/// Stability of Numerical Algorithms*, 2nd ed., section 4.2). Adding n numbers one after another
/// gives d = n - 1; the lesson's kernels give d = ceil(n / threads) + a few.

#include "course/data.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace lesson08 {

/// float's unit roundoff: half the distance from 1 to the next float.
inline constexpr double kFloatUnitRoundoff = 0x1p-24;

/// Additions an element may go through beyond its thread's share of a grid-stride loop: a head and
/// a tail element, the rounding up to whole vectors, 5 shuffle steps in its warp, 5 across the
/// block's slots, and room to spare.
inline constexpr double kBoundSlack = 20;

/// Neumaier's compensated sum, in double, one term at a time: its error is about one rounding of
/// the result, however many terms there are.
class CompensatedSum {
public:
    void add(double x)
    {
        const double t = sum_ + x;
        compensation_ += std::fabs(sum_) >= std::fabs(x) ? (sum_ - t) + x : (x - t) + sum_;
        sum_ = t;
    }
    [[nodiscard]] double value() const { return sum_ + compensation_; }

private:
    double sum_ = 0;
    double compensation_ = 0;
};

/// The compensated sum of `values` (CompensatedSum).
template <class Values>
[[nodiscard]] double compensated_sum(const Values& values)
{
    CompensatedSum sum;
    for (const auto value : values)
        sum.add(value);
    return sum.value();
}

/// The most additions an element of a float sum of n elements over `threads` threads goes through
/// in the lesson's order: ceil(n / threads) + kBoundSlack.
[[nodiscard]] inline double additions_per_element(std::size_t n, std::size_t threads)
{
    return double((n + threads - 1) / threads) + kBoundSlack;
}

/// gamma_d * magnitude, plus 2^-50 * magnitude for the double-precision reference.
[[nodiscard]] inline double rounding_error_bound(double additions, double magnitude)
{
    const double du = additions * kFloatUnitRoundoff;
    return du / (1 - du) * magnitude + 0x1p-50 * magnitude;
}

/// n floats m * 2^(e - 23), m uniform in [-2^23, 2^23] (every value exact in a float), e uniform in
/// [-spread, spread]: values in [-1, 1] for spread 0, of very different magnitudes otherwise.
[[nodiscard]] inline std::vector<float> random_floats(std::size_t n, std::uint64_t seed, int spread)
{
    // m and e are random_ints(n, seed, ...) and random_ints(n, derive_seed(seed, 1), ...), drawn
    // element by element on several threads. m * 2^(e - 23) is a float exactly (|m| <= 2^23, no
    // overflow, no subnormal), so multiplying by the power of two gives what std::ldexp gives.
    std::vector<float> powers(std::size_t(2 * spread + 1));
    for (int e = -spread; e <= spread; ++e)
        powers[std::size_t(e + spread)] = std::ldexp(1.0f, e - 23);
    const std::uint64_t exponent_seed = course::derive_seed(seed, 1);
    std::vector<float> values(n);
    course::fill_in_stretches(n, [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) {
            const int mantissa = course::random_int_at(i, seed, -(1 << 23), 1 << 23);
            const int exponent = spread > 0 ? course::random_int_at(i, exponent_seed, -spread, spread) : 0;
            values[i] = float(mantissa) * powers[std::size_t(exponent + spread)];
        }
    });
    return values;
}

/// The sum of |x_i|, in double.
[[nodiscard]] inline double magnitude_sum(const std::vector<float>& values)
{
    double sum = 0;
    for (const float x : values)
        sum += std::fabs(double(x));
    return sum;
}

/// compensated_sum and magnitude_sum of `values` in one pass over them (2^28 floats are a gigabyte).
struct FloatTotals {
    double reference = 0;
    double magnitude = 0;
};
[[nodiscard]] inline FloatTotals float_totals(const std::vector<float>& values)
{
    CompensatedSum sum;
    double magnitude = 0;
    for (const float x : values) {
        sum.add(x);
        magnitude += std::fabs(double(x));
    }
    return {sum.value(), magnitude};
}

/// Added in float one after another, first to last (recursive summation: d = n - 1).
[[nodiscard]] inline float sequential_sum(const std::vector<float>& values)
{
    float sum = 0.0f;
    for (const float x : values)
        sum += x;
    return sum;
}

/// Added in float one after another, last to first.
[[nodiscard]] inline float backward_sum(const std::vector<float>& values)
{
    float sum = 0.0f;
    for (auto x = values.rbegin(); x != values.rend(); ++x)
        sum += *x;
    return sum;
}

/// Added in float in pairs, then pairs of pairs, ... (a balanced tree: d = ceil(log2 n)).
[[nodiscard]] inline float pairwise_sum(std::vector<float> values)
{
    if (values.empty())
        return 0.0f;
    for (std::size_t width = values.size(); width > 1; width = (width + 1) / 2) {
        for (std::size_t i = 0; i < width / 2; ++i)
            values[i] = values[2 * i] + values[2 * i + 1];
        if (width % 2 != 0)
            values[width / 2] = values[width - 1];
    }
    return values[0];
}

}  // namespace lesson08
