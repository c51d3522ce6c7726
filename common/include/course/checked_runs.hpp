#pragma once
/// @file checked_runs.hpp
/// @brief Every timed run of a kernel checked: the input changes at random positions before each
/// run (untimed), and the output is judged after it, so a kernel that replays an answer it kept
/// from an earlier call fails on the run where it does, not only on a recheck afterwards.

#include <cuda_runtime_api.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <random>
#include <string>

namespace course::grading {

/// The setup and check of a timed BenchmarkCase (course/benchmark.hpp). Before each run `change`
/// alters a few input elements at positions drawn from `random`, keeps the expected output in step
/// and marks the output unwritten (all on `stream`); after the run `verify` returns what is wrong
/// with the output, or nothing, its message ending with `when` ("timed run 3, ..."). The first
/// wrong run fails the test case, once.
class CheckedRuns {
public:
    using Change = std::function<void(std::mt19937_64& random, cudaStream_t stream)>;
    using Verify = std::function<std::optional<std::string>(cudaStream_t stream, const std::string& when)>;

    /// `seed`: the input's, so that a run of the grader with the same seed changes the same elements.
    CheckedRuns(std::uint64_t seed, Change change, Verify verify);
    CheckedRuns(const CheckedRuns&) = delete;  // setup() and check() refer to this object
    CheckedRuns& operator=(const CheckedRuns&) = delete;

    [[nodiscard]] std::function<void(cudaStream_t)> setup();
    [[nodiscard]] std::function<void(cudaStream_t)> check();
    [[nodiscard]] int runs() const { return runs_; }

    /// Elements each run changes.
    static constexpr int kChangesPerRun = 4;

private:
    Change change_;
    Verify verify_;
    std::mt19937_64 random_;
    int runs_ = 0;
    bool failed_ = false;
};

}  // namespace course::grading
