#include "course/checked_runs.hpp"

#include "course/data.hpp"

#include <doctest/doctest.h>

#include <utility>

namespace course::grading {

CheckedRuns::CheckedRuns(std::uint64_t seed, Change change, Verify verify)
    : change_(std::move(change)), verify_(std::move(verify)), random_(derive_seed(seed, 0x5E7C))
{
}

std::function<void(cudaStream_t)> CheckedRuns::setup()
{
    return [this](cudaStream_t stream) { change_(random_, stream); };
}

std::function<void(cudaStream_t)> CheckedRuns::check()
{
    return [this](cudaStream_t stream) {
        ++runs_;
        if (failed_)
            return;
        const std::string when = "timed run " + std::to_string(runs_) + ", " + std::to_string(kChangesPerRun) +
                                 " elements changed before it";
        if (const auto problem = verify_(stream, when)) {
            failed_ = true;
            FAIL_CHECK(*problem);
        }
    };
}

}  // namespace course::grading
