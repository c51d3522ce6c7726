#pragma once
/// @file stats.hpp
/// @brief Summaries of repeated timings: median, extremes, quartiles, relative spread.

#include <span>

namespace course {

/// Robust summary of a set of timings (milliseconds).
struct TimingSummary {
    double median = 0;
    double min = 0;
    double max = 0;
    double p25 = 0;  ///< first quartile
    double p75 = 0;  ///< third quartile
    int runs = 0;

    /// Interquartile range over the median: 0.02 means the middle half lies within 2% of the median.
    [[nodiscard]] double relative_spread() const { return median > 0 ? (p75 - p25) / median : 0; }
};

/// Summarises `samples` (any order; at least one). Quantiles interpolate linearly.
[[nodiscard]] TimingSummary summarize(std::span<const float> samples);

/// Throughput in GB/s (10^9 bytes per second) of moving `bytes` in `milliseconds`.
[[nodiscard]] double gigabytes_per_second(double bytes, double milliseconds);

}  // namespace course
