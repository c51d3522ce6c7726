// Lesson 05 grader: with the student's phase_one, phase_two and reduce_sum_launch (their module,
// launched by the lesson's reduce_sum), is the sum exact for every n from 1 to 2^28, in 64 bits,
// on any int pointer, and is it read at close to the device's copy bandwidth?
//
//   ./course grade 05                    # builds the module of exercises/ and runs this on it
//   build/gpu/lessons/lesson05_grader --seed=1234   # repeat a run with its printed seed
//   build/gpu/lessons/lesson05_grader --modules=build/gpu/modules/solution   # the reference

#include "global_reduction.hpp"

#include "course/backend.hpp"
#include "course/benchmark.hpp"
#include "course/cuda_check.hpp"
#include "course/cuda_handles.hpp"
#include "course/data.hpp"
#include "course/failures.hpp"
#include "course/gpu_sharing.hpp"
#include "course/grading.hpp"
#include "course/kernel_profile.hpp"
#include "course/reduction.hpp"
#include "course/results.hpp"
#include "course/sum_grading.hpp"
#include "course/table.hpp"
#include "lesson_checks.hpp"

#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace {

// Calibrated on an H200 with 20 repeated runs (lessons/05_global_reduction/README.md): the
// reference reads at 100.3-101.0% of the copy bandwidth measured beside it, the starter (one
// element per thread) at 14.9%, the lesson's best configuration with 4-byte loads at 58%.
using course::results::Backend;
constexpr double kLeastPercentOfCopy = manifest::threshold("reduce_sum", Backend::gpu);
constexpr double kLeastModelledPercentOfCopy = manifest::threshold("reduce_sum", Backend::sim);
constexpr std::size_t kTimedSize = course::size_for_backend(std::size_t{1} << 28, std::size_t{1} << 24);
// On the simulator, reduce_sum must also read each input byte once: the global-memory bytes its
// load requests fetch per element (4 for one pass over the ints, plus the partials), re-reads
// included.
constexpr double kMostBytesPerElement = manifest::threshold("reduce_sum/bytes_per_element", Backend::sim);

// On the simulator, the most warp instructions per element reduce_sum may issue for the check past
// index 2^31 to run there: 0.9, 3.4 times the reference's 0.27 (2^31 elements of the reference are
// interpreted in about 12 s on two cores). A kernel that needs more cannot pass the modelled
// bandwidth check either: the starter, at 1.68 per element, reaches 22% of the modelled copy.
constexpr double kMostInterpretedInstructionsPerElement =
    manifest::threshold("reduce_sum/instructions_per_element", Backend::sim);

constexpr int kMagnitude = 1 << 16;

/// The whole-sum sizes from 1 to 2^28 (2^24 + 43 on the simulator).
const std::vector<std::size_t>& exact_sizes()
{
    static const std::vector<std::size_t> sizes = course::grading::whole_sum_sizes();
    return sizes;
}

using course::Stream;
using course::grading::SumCase;
using course::grading::SumInput;

/// "phase 1: min(...) = 1056 blocks of 256 threads ...; phase 2: ...": the launch the lesson makes
/// of the student's reduce_sum_launch.
std::string describe_launch(std::size_t n)
{
    const auto& plan = lesson05::reduce_sum_plan();
    const auto block = plan.launch.phase_one_block;
    std::ostringstream text;
    text << "phase 1: min(ceil(n / " << block << "), max_blocks_per_sm " << plan.launch.max_blocks_per_sm << " x "
         << plan.sm_count << " SMs) = " << lesson05::partials_needed(n) << " blocks of " << block
         << " threads for n = " << n << " (one SM holds " << plan.resident_blocks_per_sm
         << " blocks of this phase_one at a time); phase 2: one block of " << plan.launch.phase_two_block << " threads";
    return text.str();
}

/// On the simulator: whether reduce_sum is lean enough to interpret over `n` elements in well under
/// a minute, a technique check of its own: its warp instructions per element at 2^22 at most
/// kMostInterpretedInstructionsPerElement. A kernel that needs more fails it as too slow (as it
/// fails the bandwidth check), and is checked past 2^31 once it is leaner.
bool lean_enough_to_interpret(std::size_t n)
{
    const auto sample = course::grading::make_sum_case(std::size_t{1} << 22, -kMagnitude, kMagnitude, 199);
    SumInput input(sample.n);
    const int* data = input.put(sample.values, 0);
    lesson05::Workspace workspace(sample.n);
    course::DeviceBuffer<long long> result(1);
    Stream stream;
    const auto counted = course::profile(
        [&](cudaStream_t s) { lesson05::reduce_sum(data, sample.n, result.data(), workspace, s); }, stream.get());
    const double per_element = double(counted.warp_instructions) / double(sample.n);
    return course::grading::check_technique(
        {"reduce_sum", "warp instructions per element", per_element, kMostInterpretedInstructionsPerElement, true, "",
         "warp instructions " + std::to_string(counted.warp_instructions) + " at n = 2^22, about " +
             course::fixed(per_element * double(n) / 1e9, 2) + " billion over n = " + std::to_string(n),
         "reduce_sum/instructions_per_element"},
        "The simulator interprets every instruction, and checks the indexing past 2^31 once reduce_sum "
        "issues fewer per element (the bandwidth check shows where its time goes).");
}

/// Poisons the result and the workspace, runs reduce_sum on `stream`, waits, returns the result.
long long run_reduce_sum(const int* data, std::size_t n, lesson05::Workspace& workspace,
                         course::DeviceBuffer<long long>& result, cudaStream_t stream)
{
    return course::grading::run_whole_sum("reduce_sum", lesson05::reduce_sum, data, n, workspace, result, stream);
}

/// Fails one check, with the fixed first word, when `got` is not the expected sum; false then.
bool check_result(long long got, const SumCase& input, std::size_t offset, std::string_view when = "")
{
    return course::grading::check_sum(got, input, offset, "reduce_sum", when);
}

/// reduce_sum with a workspace for up to `capacity` elements, for the whole-sum test cases.
course::grading::WholeSum reduce_sum_under_test(std::size_t capacity)
{
    auto workspace = std::make_shared<lesson05::Workspace>(capacity);
    auto result = std::make_shared<course::DeviceBuffer<long long>>(1);
    return {[workspace, result](const int* data, std::size_t n, cudaStream_t stream) {
                return run_reduce_sum(data, n, *workspace, *result, stream);
            },
            [](long long got, const SumCase& input, std::size_t offset, cudaStream_t) {
                return check_result(got, input, offset);
            },
            "reduce_sum"};
}

}  // namespace

TEST_SUITE("lesson05")
{
    TEST_CASE("reduce_sum_launch states a launch the lesson can make")
    {
        // The other test cases refuse a bad configuration too (reduce_sum throws it); this one
        // says it once, first, or shows the launch the lesson makes of the student's choices.
        course::grading::state_launch("reduce_sum_launch", [] { return describe_launch(kTimedSize); });
    }

    TEST_CASE("reduce_sum gives the exact sum for every n from 1 to 2^28 (2^24 on the simulator)")
    {
        course::grading::check_exact_sums(reduce_sum_under_test, exact_sizes(), kMagnitude);
    }

    TEST_CASE("reduce_sum adds in 64 bits: sums far beyond the range of an int")
    {
        course::grading::check_wide_sums(reduce_sum_under_test);
    }

    TEST_CASE("reduce_sum reads memory nearly as fast as the device copies it")
    {
        const auto one = course::grading::make_sum_case(kTimedSize, -kMagnitude, kMagnitude, 300);
        SumInput input(one.n);
        int* data = input.put(one.values, 0);
        course::DeviceBuffer<int> copy_target(one.n);
        lesson05::Workspace workspace(one.n);
        course::DeviceBuffer<long long> result(1);
        // Each timed run's sum checked, on an input changed at a few places before it.
        course::grading::CheckedSumRuns checked(data, one, result.data(), "reduce_sum");
        course::DeviceBuffer<long long> cub_result(1);
        lesson05::CubSum cub(one.n);
        const std::size_t bytes = one.n * sizeof(int);

        const std::vector<course::BenchmarkCase> cases = {
            {"copy",
             {},
             [&](cudaStream_t s) {
                 COURSE_CUDA_CHECK(cudaMemcpyAsync(copy_target.data(), data, bytes, cudaMemcpyDeviceToDevice, s));
             }},
            {"reduce_sum", checked.setup(),
             [&](cudaStream_t s) { lesson05::reduce_sum(data, one.n, result.data(), workspace, s); }, checked.check()},
            {"cub", {}, [&](cudaStream_t s) { cub.run(data, one.n, cub_result.data(), s); }},
        };
        const auto timings = course::run_interleaved(cases, course::grading::timed_run_options(101));

        // Still right after the timed runs, on new contents at the same address: a sum remembered
        // from an earlier call on this pointer is wrong now.
        Stream stream;
        const auto fresh = course::grading::make_sum_case(one.n, -kMagnitude, kMagnitude, 301);
        check_result(run_reduce_sum(input.put(fresh.values, 0), one.n, workspace, result, stream.get()), fresh, 0,
                     " (after the timed runs, new contents at the same address)");

        const double copy_gbs = course::gigabytes_per_second(2.0 * double(bytes), timings[0].summary.median);
        const double reduce_gbs = course::gigabytes_per_second(double(bytes), timings[1].summary.median);
        const double cub_gbs = course::gigabytes_per_second(double(bytes), timings[2].summary.median);
        const double fraction = reduce_gbs / copy_gbs;
        const std::string size = course::kOnSimulator ? "2^24" : "2^28";
        const std::string hint =
            ". Your launch: " + describe_launch(one.n) +
            ". The kernel is held back by its instructions and round trips to memory, not by the bytes it reads: "
            "compare its blocks, the elements each thread adds and the loads it keeps in flight with the copy's.";
        if constexpr (course::kOnSimulator) {
            // The technique: one pass over the input (bytes loaded per element), and the modelled
            // bandwidth that few instructions per element and bytes in flight give.
            const auto counted = course::profile(
                [&](cudaStream_t s) { lesson05::reduce_sum(data, one.n, result.data(), workspace, s); }, stream.get());
            const double loaded_per_element = 32.0 * double(counted.global_load_sectors) / double(one.n);
            const std::string counters =
                "global bytes loaded/element " + course::fixed(loaded_per_element, 2) + ", DRAM bytes/element " +
                course::fixed(32.0 * double(counted.dram_sectors) / double(one.n), 2) + ", issue slots/element " +
                course::fixed(double(counted.issue_slots) / double(one.n), 3) + ", global sectors/load request " +
                course::fixed(counted.sectors_per_load_request(), 2) + ", launches " +
                std::to_string(counted.launches) + ", modelled: copy " + course::fixed(timings[0].summary.median, 3) +
                " ms, reduce_sum " + course::fixed(timings[1].summary.median, 3) + " ms, cub::DeviceReduce::Sum " +
                course::fixed(timings[2].summary.median, 3) + " ms; n = " + size;
            course::grading::check_technique({"reduce_sum", "global-memory bytes loaded per element",
                                              loaded_per_element, kMostBytesPerElement, true, " B", counters,
                                              "reduce_sum/bytes_per_element"},
                                             "Some input elements are read more than once" + hint);
            course::grading::check_technique({"reduce_sum", "modelled bandwidth, % of the modelled copy's",
                                              100 * fraction, kLeastModelledPercentOfCopy, false, "%", counters},
                                             "In the timing model" + hint);
            return;
        }
        std::ostringstream measured;
        measured << "reads " << size << " ints at " << course::fixed(reduce_gbs, 0)
                 << " GB/s = " << course::fixed(100 * fraction, 1)
                 << "% of the device-to-device copy bandwidth measured in this run (" << course::fixed(copy_gbs, 0)
                 << " GB/s, reads + writes; medians: copy " << course::fixed(timings[0].summary.median, 3)
                 << " ms, reduce_sum " << course::fixed(timings[1].summary.median, 3) << " ms, spread "
                 << course::fixed(100 * timings[1].summary.relative_spread(), 1) << "%, " << timings[1].summary.runs
                 << " runs each, L2 flushed); cub::DeviceReduce::Sum " << course::fixed(cub_gbs, 0)
                 << " GB/s = " << course::fixed(100 * cub_gbs / copy_gbs, 1) << "% (reduce_sum at "
                 << course::fixed(100 * reduce_gbs / cub_gbs, 1) << "% of CUB)";
        MESSAGE("reduce_sum " << measured.str());
        if (!course::grading::check_physically_possible(fraction, "reduce_sum", measured.str()))
            return;
        // check_at_least: the threshold a thresholds file may override ("reduce_sum" on the GPU).
        course::grading::check_at_least(100 * fraction, kLeastPercentOfCopy, "reduce_sum",
                                        "% of the device-to-device copy bandwidth",
                                        "reduce_sum " + measured.str() + hint);
    }

    // Last: a kernel that faults here (a 16-byte load from an address that is not 16-byte aligned)
    // leaves the device unusable for the rest of the run.
    TEST_CASE("reduce_sum works on any int pointer, not only 16-byte aligned ones")
    {
        course::grading::check_misaligned_sums(reduce_sum_under_test, kMagnitude);
    }

    // Last: on the simulator the costliest case by far (2^31 elements interpreted), so that a kernel
    // that fails an earlier case is told so without waiting for it.
    TEST_CASE("reduce_sum indexes past 2^31 elements: size_t, not int")
    {
        // 2^31 + 65539 ints (8.6 GB): zeros, except random values around index 2^31, where an
        // int index or count wraps. A GPU without the memory cannot hold them and says so instead
        // of checking. The simulator maps a buffer this large page by page as it is written, so
        // the zeros cost no memory there, but it interprets every instruction over all of them.
        constexpr std::size_t n = (std::size_t{1} << 31) + 65'539;
        constexpr std::size_t window = std::size_t{1} << 20;  // the values before index 2^31
        if (course::grading::under_sanitizer()) {
            MESSAGE("not run under compute-sanitizer: its tools would shadow 8.6 GB; the sanitizer pass checks the "
                    "small cases");
            return;
        }
        if constexpr (course::kOnSimulator) {
            if (!lean_enough_to_interpret(n))
                return;
        }
        // 8.6 GB: more than graders beside this one leave free, so the GPU is this grader's alone.
        const course::ExclusiveGpu alone;
        std::size_t free_bytes = 0;
        std::size_t total_bytes = 0;
        COURSE_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
        const std::size_t needed = (n + course::kGuardElements) * sizeof(int) + (std::size_t{512} << 20);
        if (free_bytes < needed) {
            MESSAGE("not checked on this GPU: it has " << free_bytes / (1 << 20) << " MiB free, the check needs "
                                                       << needed / (1 << 20) << " MiB");
            return;
        }
        course::DeviceBuffer<int> data(n + course::kGuardElements);
        const std::size_t first = (std::size_t{1} << 31) - window;
        const auto near = course::grading::make_sum_case(n - first, -kMagnitude, kMagnitude, 200);
        COURSE_CUDA_CHECK(cudaMemset(data.data(), 0, first * sizeof(int)));
        COURSE_CUDA_CHECK(cudaMemcpy(data.data() + first, near.values.data(), near.values.size() * sizeof(int),
                                     cudaMemcpyHostToDevice));
        COURSE_CUDA_CHECK(cudaMemset(data.data() + n, course::kPoisonByte, course::kGuardElements * sizeof(int)));
        COURSE_CUDA_CHECK(cudaDeviceSynchronize());
        lesson05::Workspace workspace(n);
        course::DeviceBuffer<long long> result(1);
        Stream stream;
        const SumCase whole{n, -kMagnitude, kMagnitude, near.seed, {}, near.expected};
        check_result(run_reduce_sum(data.data(), n, workspace, result, stream.get()), whole, 0,
                     " (zeros, then random values from index 2^31 - 2^20 on)");
    }
}
