#pragma once
/// @file benchmark.hpp
/// @brief Timing kernels side by side with CUDA events, the way the course's graders compare them.
///
/// Each case has a setup (restoring an in-place input, for instance), a run and a check. For every
/// timed run the harness does, on one stream: setup, L2 flush, start event, run, stop event, wait,
/// check. Only the run lies between the events. Cases are interleaved (A B A B ...) so that a clock or thermal
/// drift hits them alike, and the loop stops once every case's timings are stable.

#include "course/backend.hpp"
#include "course/stats.hpp"

#include <cuda_runtime_api.h>

#include <functional>
#include <iosfwd>
#include <span>
#include <string>
#include <vector>

namespace course {

/// One thing to time.
struct BenchmarkCase {
    std::string name;
    std::function<void(cudaStream_t)> setup;  ///< untimed, before each run; may be empty
    std::function<void(cudaStream_t)> run;    ///< timed; must enqueue its work on the stream
    /// untimed, after each run has finished (its result checked); may be empty
    std::function<void(cudaStream_t)> check = {};
};

struct BenchmarkOptions {
    /// Per case, untimed (module load, first-touch, clocks); none on the simulator, whose modelled
    /// times do not warm up.
    int warmup_runs = kOnSimulator ? 0 : 2;
    int min_runs = 11;            ///< per case, before stability is judged
    int max_runs = 101;           ///< per case, at most
    double stable_spread = 0.03;  ///< stop once every case's relative spread is below this
    bool flush_l2 = true;         ///< evict the L2 cache before each timed run
    /// Where to say which case runs, before each timed run ("  modelling NAME, run 1 of up to 3"):
    /// the demos on the simulator, where one run takes seconds. Nothing when null.
    std::ostream* progress = nullptr;
};

struct BenchmarkResult {
    std::string name;
    std::vector<float> milliseconds;  ///< every timed run, in order
    TimingSummary summary;
};

/// Times `cases` interleaved on one stream; results in the order of `cases`.
[[nodiscard]] std::vector<BenchmarkResult> run_interleaved(std::span<const BenchmarkCase> cases,
                                                           const BenchmarkOptions& options = {});

/// True once every result has a relative spread below `stable_spread` (pure; unit-tested).
[[nodiscard]] bool timings_are_stable(std::span<const BenchmarkResult> results, double stable_spread);

}  // namespace course
