// Lesson 03 grader: is reduce_neighbored_less right for every n and block size, and faster than
// reduce_neighbored?
//
//   ./course grade 03                    # builds and runs this against exercises/
//   build/gpu/lessons/lesson03_grader --seed=1234   # repeat a run with its printed seed

#include "neighbored_reduction.hpp"

#include "course/grading.hpp"
#include "course/results.hpp"
#include "lesson_checks.hpp"

#include <doctest/doctest.h>

#include <cstddef>
#include <string_view>

namespace {

// The timed case. Calibrated on an H100 (lessons/03_neighbored_reduction/README.md): the reference
// runs about 1.8x faster than the baseline at 2^24 ints, the unchanged starter about 1.0x. On the
// simulator the baseline spends 2.75 issue slots for each of the reference's (its `%` is a long
// instruction sequence, and every warp stays busy to the last step), the starter 1.00.
constexpr std::size_t kTimedSize = std::size_t{1} << 24;
constexpr unsigned kTimedBlock = 512;

constexpr const char* kHint =
    "At every stride the threads that add are still spread over all the block's warps, so no warp falls "
    "idle while fewer and fewer threads work (see the issue slots per warp above).";

}  // namespace

TEST_SUITE("lesson03")
{
    TEST_CASE("reduce_neighbored (the baseline) gives exact block sums" * doctest::test_suite("baselines"))
    {
        course::grading::check_block_reduction(lesson03::launch_reduce_neighbored, "reduce_neighbored",
                                               {1, 33, 513, 1'000'003}, course::grading::power_of_two_blocks());
    }

    TEST_CASE("reduce_neighbored_less gives exact block sums for every size and block size")
    {
        course::grading::check_block_reduction(lesson03::launch_reduce_neighbored_less, "reduce_neighbored_less",
                                               course::grading::awkward_sizes(),
                                               course::grading::power_of_two_blocks());
    }

    TEST_CASE("reduce_neighbored_less is faster than reduce_neighbored")
    {
        // On the simulator, what makes it faster: fewer instructions per warp.
        course::grading::check_block_reduction_speed(
            lesson03::launch_reduce_neighbored, lesson03::launch_reduce_neighbored_less, kTimedSize, kTimedBlock,
            manifest::threshold("reduce_neighbored_less", manifest::Backend::gpu), "reduce_neighbored_less",
            "reduce_neighbored", kHint, [](const course::grading::ProfiledPair& counted) {
                course::grading::check_technique(
                    {"reduce_neighbored_less", "issue slots per warp, reduce_neighbored's / yours",
                     counted.baseline.issue_slots_per_warp() / counted.candidate.issue_slots_per_warp(),
                     manifest::threshold("reduce_neighbored_less", manifest::Backend::sim), false, "x",
                     course::grading::compare_counters(counted)},
                    kHint);
            });
    }
}
