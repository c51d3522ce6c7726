#pragma once
/// @file report.hpp
/// @brief Machine-readable results: what a demo measured, as JSON.

#include "course/device.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace course {

/// One row of a demo's results table.
struct ResultRow {
    std::string kernel;
    double median_ms = 0;
    double min_ms = 0;
    double spread = 0;  ///< relative interquartile range of the timings
    int runs = 0;
    double gigabytes_per_second = 0;
    double speedup = 0;  ///< over the lesson's baseline; 0 when not applicable
    bool correct = false;
};

/// Everything a demo run measured, with what is needed to reproduce it.
struct RunReport {
    std::string lesson;
    DeviceInfo device;
    std::uint64_t n = 0;
    unsigned block = 0;
    std::uint64_t seed = 0;
    std::int64_t expected_sum = 0;
    std::vector<ResultRow> rows;
};

/// The report as JSON text (pretty-printed).
[[nodiscard]] std::string to_json(const RunReport& report);

/// Writes the report to `path`; throws std::runtime_error naming the path if that fails.
void write_json(const RunReport& report, const std::string& path);

}  // namespace course
