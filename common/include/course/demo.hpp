#pragma once
/// @file demo.hpp
/// @brief What every lesson demo does around its own work: parse the command line, find the GPU,
/// check that the arrays fit, report errors as one line; and the timing table the demos print.

#include "course/benchmark.hpp"
#include "course/cli.hpp"
#include "course/device.hpp"
#include "course/report.hpp"
#include "course/stats.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace course {

/// The body of a demo: runs with valid options on a device that exists; returns the exit code.
using DemoBody = std::function<int(const DemoOptions& options, const DeviceInfo& device)>;

/// Parses argv against `spec`, probes the GPU, checks that `bytes_per_element` bytes for each of
/// the n elements (and `extra_elements` more) fit in its free memory, starts the idle watchdog
/// (COURSE_DEMO_TIMEOUT seconds without a finished CUDA call, 300 on the simulator and 60 on a GPU
/// by default: course/watchdog.hpp), then runs `body`. Returns 2 for a bad command line, 1 when
/// there is no GPU or `body` throws (the error printed as one line), 124 when the watchdog stops a
/// kernel that never finishes, else what `body` returns.
int run_demo(const DemoSpec& spec, double bytes_per_element, int argc, const char* const* argv, const DemoBody& body,
             std::uint64_t extra_elements = 0);

/// A demo's first two lines: "<program>: <title>" and "device <id>: <banner>".
void print_heading(std::ostream& out, std::string_view program, std::string_view title, const DeviceInfo& device);

/// "seed <s> (--seed <s> repeats it)": how a demo names the seed of its input.
[[nodiscard]] std::string seed_text(std::uint64_t seed);

/// "array: <n> ints (<size> MB), values 0..<max>, seed ...": a demo's input of n random ints, its
/// size with `mb_digits` decimals.
[[nodiscard]] std::string int_array_text(std::uint64_t n, int max, std::uint64_t seed, int mb_digits = 1);

/// One row of a demo's timing table.
struct TimedRow {
    std::string label;  ///< as printed, e.g. "per-warp ballot (exercises/01_warp_basics)"
    std::string name;   ///< as in the JSON report, e.g. "per-warp-ballot"
    TimingSummary timing;
    double bytes = 0;                     ///< bytes counted for the GB/s column; 0 leaves it empty
    std::optional<std::size_t> baseline;  ///< row the speedup is measured against; empty: no speedup
    bool correct = false;                 ///< the output matched the host reference after the timed runs
};

/// Prints kernel, median ms, min ms, spread, GB/s, speedup, correct; appends one ResultRow per row
/// to `report` when it is given.
void print_timing_table(std::span<const TimedRow> rows, std::ostream& out, std::vector<ResultRow>* report = nullptr);

/// The demos' timing settings: up to --reps runs of each case (no more than that at the least), and
/// on the simulator, where a run takes seconds, a line on standard output before each.
[[nodiscard]] BenchmarkOptions demo_timing(const DemoOptions& options);

/// The end of a demo: `report` written where --json asked, and a line that says where (`about`,
/// when given, in parentheses after the path: what its speedup column means); then, when a row was
/// wrong, `when_wrong` (when given). Returns the demo's exit code: 0, or 1 when a row was wrong.
int finish_demo(const RunReport& report, const DemoOptions& options, bool all_correct, std::string_view about = {},
                std::string_view when_wrong = {});

}  // namespace course
