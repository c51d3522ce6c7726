// Lesson 04 grader: are reduce_interleaved and reduce_shared_interleaved right for every n and
// block size, and faster than the kernels they replace? The student's kernels come from their
// modules; the baselines are the course's own: lesson 03's reduce_neighbored and its reference
// module of reduce_neighbored_less, never the student's lesson 03.
//
//   ./course grade 04                    # builds the modules of exercises/ and runs this on them
//   build/gpu/lessons/lesson04_grader --seed=1234   # repeat a run with its printed seed
//   build/gpu/lessons/lesson04_grader --modules=build/gpu/modules/solution   # the reference

#include "interleaved_reduction.hpp"

#include "neighbored_reduction.hpp"

#include "course/grading.hpp"
#include "course/results.hpp"
#include "lesson_checks.hpp"

#include <doctest/doctest.h>

#include <cstddef>
#include <string_view>

namespace {

// Calibrated on an H200 with 20 repeated runs of the reference (lessons/04_interleaved_reduction/
// README.md), at 2^24 ints, blocks of 512; every run measured the same ratios to +-0.01:
//   interleaved over neighbored                 2.14x  (the starter 1.00x, neighbored-less 1.86x)
//   interleaved over neighbored-less            1.15x  (the starter 0.54x, neighbored-less 1.00x)
//   shared interleaved over shared neighb.-less 1.20x  (the starter 0.60x, neighbored-less 1.00x)
using course::results::Backend;
constexpr double kOverNeighbored = manifest::threshold("reduce_interleaved/reduce_neighbored", Backend::gpu);
constexpr double kOverNeighboredLess = manifest::threshold("reduce_interleaved/reduce_neighbored_less", Backend::gpu);
constexpr double kSharedOverSharedNeighboredLess = manifest::threshold("reduce_shared_interleaved", Backend::gpu);
constexpr std::size_t kTimedSize = std::size_t{1} << 24;
// On the simulator, the counters behind those speedups. The reference's figures: issue slots 2.74x
// (the starter 1.00x), global sectors 3.84x (the starter 1.00x), bank conflicts per request 0
// (shared neighbored-less 2.9), issue slots of the shared kernels 1.24x (the starter 0.4x).
constexpr double kIssueRatioOverNeighbored = manifest::threshold("reduce_interleaved/reduce_neighbored", Backend::sim);
constexpr double kSectorRatioOverNeighboredLess =
    manifest::threshold("reduce_interleaved/reduce_neighbored_less", Backend::sim);
constexpr double kMostConflictsPerRequest =
    manifest::threshold("reduce_shared_interleaved/bank_conflicts", Backend::sim);
constexpr double kIssueRatioOverSharedNeighboredLess = manifest::threshold("reduce_shared_interleaved", Backend::sim);
constexpr unsigned kTimedBlock = 512;

}  // namespace

TEST_SUITE("lesson04")
{
    TEST_CASE("the shared-memory baselines give exact block sums" * doctest::test_suite("baselines"))
    {
        course::grading::check_block_reduction(lesson04::launch_reduce_shared_neighbored, "reduce_shared_neighbored",
                                               {1, 33, 513, 1'000'003}, course::grading::power_of_two_blocks());
        course::grading::check_block_reduction(lesson04::launch_reduce_shared_neighbored_less,
                                               "reduce_shared_neighbored_less", {1, 33, 513, 1'000'003},
                                               course::grading::power_of_two_blocks());
    }

    TEST_CASE("reduce_interleaved gives exact block sums for every size and block size")
    {
        course::grading::check_block_reduction(lesson04::launch_reduce_interleaved, "reduce_interleaved",
                                               course::grading::awkward_sizes(),
                                               course::grading::power_of_two_blocks());
    }

    TEST_CASE("reduce_shared_interleaved gives exact block sums for every size and block size")
    {
        course::grading::check_block_reduction(lesson04::launch_reduce_shared_interleaved, "reduce_shared_interleaved",
                                               course::grading::awkward_sizes(),
                                               course::grading::power_of_two_blocks());
    }

    TEST_CASE("reduce_interleaved is faster than reduce_neighbored")
    {
        // On the simulator: fewer instructions per warp (no `%`, whole warps idle).
        constexpr const char* hint =
            "At every stride the threads that add are still spread over many warps, and the words they add lie "
            "far apart (see the issue slots per warp and the global sectors above).";
        course::grading::check_block_reduction_speed(
            lesson03::launch_reduce_neighbored, lesson04::launch_reduce_interleaved, kTimedSize, kTimedBlock,
            kOverNeighbored, "reduce_interleaved", "reduce_neighbored", hint,
            [&](const course::grading::ProfiledPair& counted) {
                course::grading::check_technique(
                    {"reduce_interleaved", "issue slots per warp, reduce_neighbored's / yours",
                     counted.baseline.issue_slots_per_warp() / counted.candidate.issue_slots_per_warp(),
                     kIssueRatioOverNeighbored, false, "x", course::grading::compare_counters(counted),
                     "reduce_interleaved/reduce_neighbored"},
                    hint);
            },
            "reduce_interleaved/reduce_neighbored");
    }

    TEST_CASE("reduce_interleaved is faster than reduce_neighbored_less")
    {
        // On the simulator: consecutive lanes touch consecutive words, so far fewer sectors move.
        constexpr const char* hint =
            "The threads that add may sit together now, but the words a warp reads and writes are still spread "
            "out, so each request touches many 32-byte sectors (see the sectors per load request above).";
        course::grading::check_block_reduction_speed(
            lesson03::launch_reference_reduce_neighbored_less, lesson04::launch_reduce_interleaved, kTimedSize,
            kTimedBlock, kOverNeighboredLess, "reduce_interleaved", "reduce_neighbored_less", hint,
            [&](const course::grading::ProfiledPair& counted) {
                const auto sectors = [](const course::KernelProfile& p) {
                    return double(p.global_load_sectors + p.global_store_sectors);
                };
                course::grading::check_technique(
                    {"reduce_interleaved", "global memory sectors, reduce_neighbored_less's / yours",
                     sectors(counted.baseline) / sectors(counted.candidate), kSectorRatioOverNeighboredLess, false, "x",
                     course::grading::compare_counters(counted), "reduce_interleaved/reduce_neighbored_less"},
                    hint);
            },
            "reduce_interleaved/reduce_neighbored_less");
    }

    TEST_CASE("reduce_shared_interleaved is faster than reduce_shared_neighbored_less")
    {
        // On the simulator: no bank conflicts, and fewer instructions than the kernel it replaces.
        constexpr const char* hint =
            "In shared memory the tree still diverges inside warps, or the lanes of a warp collide in the same "
            "bank (see the bank conflicts and the issue slots above).";
        course::grading::check_block_reduction_speed(
            lesson04::launch_reduce_shared_neighbored_less, lesson04::launch_reduce_shared_interleaved, kTimedSize,
            kTimedBlock, kSharedOverSharedNeighboredLess, "reduce_shared_interleaved", "reduce_shared_neighbored_less",
            hint, [&](const course::grading::ProfiledPair& counted) {
                course::grading::check_technique(
                    {"reduce_shared_interleaved", "shared-memory bank conflicts per request",
                     counted.candidate.conflicts_per_shared_request(), kMostConflictsPerRequest, true, "",
                     course::grading::compare_counters(counted), "reduce_shared_interleaved/bank_conflicts"},
                    hint);
                course::grading::check_technique(
                    {"reduce_shared_interleaved", "issue slots per warp, reduce_shared_neighbored_less's / yours",
                     counted.baseline.issue_slots_per_warp() / counted.candidate.issue_slots_per_warp(),
                     kIssueRatioOverSharedNeighboredLess, false, "x", course::grading::compare_counters(counted)},
                    hint);
            });
    }
}
