// Lesson 09 grader: with the student's reduce_once and reduce_once_launch (their module, launched
// ONCE per call by the lesson's reduce_once), is the sum exact for every n from 1 to 2^28, call
// after call on one workspace (the ticket set back to 0 each time), on two streams at once, in a
// CUDA graph, on any int pointer; are the partials ordered before the ticket; and is one launch
// faster than lesson 05's two at a small n?
//
//   ./course grade 09                    # builds the module of exercises/ and runs this on it
//   build/gpu/lessons/lesson09_grader --seed=1234   # repeat a run with its printed seed
//   build/gpu/lessons/lesson09_grader --modules=build/gpu/modules/solution   # the reference

#include "one_launch.hpp"

#include "course/backend.hpp"
#include "course/benchmark.hpp"
#include "course/cuda_check.hpp"
#include "course/cuda_handles.hpp"
#include "course/data.hpp"
#include "course/failures.hpp"
#include "course/grading.hpp"
#include "course/reduction.hpp"
#include "course/results.hpp"
#include "course/sum_grading.hpp"
#include "course/table.hpp"
#include "lesson_checks.hpp"

#include <doctest/doctest.h>

#include <array>
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

// Calibrated on the H100 (lessons/09_one_launch_reduction/README.md): one launch against lesson
// 05's two at 2^16 ints, single calls with L2 flushed. The reference (blocks of 512 threads) ran
// 1.24-1.33x in 20 grader runs, the starter (one block) 0.07-0.08x in 20.
constexpr double kSpeedup = manifest::threshold("reduce_once", manifest::Backend::gpu);
// On the simulator: the timing model's ratio (2 us per launch, memory round trips), measured with
// the reference at 1.55x, the starter at 0.04x.
constexpr double kModelledSpeedup = manifest::threshold("reduce_once", manifest::Backend::sim);
constexpr std::size_t kTimedSize = std::size_t{1} << 16;

constexpr int kMagnitude = 1 << 16;

/// The whole-sum sizes from 1 to 2^28 (2^24 + 43 on the simulator), 8191 among them: one block, a
/// few blocks, around the reference's one-block limit (4096), a full wave and beyond.
const std::vector<std::size_t>& exact_sizes()
{
    static const std::vector<std::size_t> sizes = course::grading::whole_sum_sizes({8191});
    return sizes;
}

using course::Stream;
using course::grading::SumCase;
using course::grading::SumInput;

std::string describe(const SumCase& input, std::size_t offset)
{
    return course::grading::describe_sum_case(input, offset,
                                              ", grid " + std::to_string(lesson09::grid_for(input.n)) + " blocks");
}

std::string describe_launch(std::size_t n)
{
    const auto& plan = lesson09::reduce_once_plan();
    const auto& launch = plan.launch;
    std::ostringstream text;
    text << "max(1, min(ceil(n / (" << launch.block << " x " << launch.items_per_thread << ")), max_blocks_per_sm "
         << launch.max_blocks_per_sm << " x " << plan.sm_count << " SMs)) = " << lesson09::grid_for(n) << " blocks of "
         << launch.block << " threads for n = " << n << " (one SM holds " << plan.resident_blocks_per_sm
         << " blocks of this reduce_once at a time), "
         << (launch.cooperative != 0 ? "a cooperative launch" : "an ordinary launch");
    return text.str();
}

/// Poisons the result and the partials, runs reduce_once on `stream`, waits, returns the result.
long long run_reduce_once(const int* data, std::size_t n, lesson09::Workspace& workspace,
                          course::DeviceBuffer<long long>& result, cudaStream_t stream)
{
    return course::grading::run_whole_sum("reduce_once", lesson09::reduce_once, data, n, workspace, result, stream);
}

bool check_result(long long got, const SumCase& input, std::size_t offset, std::string_view when = "")
{
    return course::grading::check_sum(got, input, offset, "reduce_once", when,
                                      ", grid " + std::to_string(lesson09::grid_for(input.n)) + " blocks");
}

/// The ticket must be 0 again after every call: the next call's blocks count from it.
bool check_ticket(lesson09::Workspace& workspace, cudaStream_t stream, const SumCase& input, std::string_view when = "")
{
    const unsigned ticket = workspace.read_ticket(stream);
    if (ticket == 0)
        return true;
    FAIL_CHECK(course::failure::wrong_result.with("reduce_once" + std::string(when) + ", " + describe(input, 0) +
                                                  ": the workspace's ticket holds " + std::to_string(ticket) +
                                                  " after the call, not 0, so the next call's blocks count from " +
                                                  std::to_string(ticket) + "." + course::grading::hint_command()));
    return false;
}

/// reduce_once with a workspace for up to `capacity` elements, for the whole-sum test cases: its
/// sum, and its ticket back at 0 after every call.
course::grading::WholeSum reduce_once_under_test(std::size_t capacity)
{
    auto workspace = std::make_shared<lesson09::Workspace>(capacity);
    auto result = std::make_shared<course::DeviceBuffer<long long>>(1);
    return {[workspace, result](const int* data, std::size_t n, cudaStream_t stream) {
                return run_reduce_once(data, n, *workspace, *result, stream);
            },
            [workspace](long long got, const SumCase& input, std::size_t offset, cudaStream_t stream) {
                return check_result(got, input, offset) && check_ticket(*workspace, stream, input);
            },
            "reduce_once"};
}

}  // namespace

TEST_SUITE("lesson09")
{
    TEST_CASE("reduce_once_launch states a launch the lesson can make")
    {
        course::grading::state_launch("reduce_once_launch", [] {
            return describe_launch(kTimedSize) +
                   "; for n = 2^24: " + std::to_string(lesson09::grid_for(std::size_t{1} << 24)) + " blocks";
        });
    }

    TEST_CASE("reduce_once gives the exact sum for every n from 1 to 2^28 (2^24 on the simulator), call after call")
    {
        course::grading::check_exact_sums(reduce_once_under_test, exact_sizes(), kMagnitude);
    }

    TEST_CASE("reduce_once adds in 64 bits: sums far beyond the range of an int")
    {
        course::grading::check_wide_sums(reduce_once_under_test);
    }

    TEST_CASE("reduce_once is right for 200 calls in a row on one workspace, with no wait between them")
    {
        // The calls are queued back to back, as a program would make them: a ticket left at any
        // value but 0, or a partial of one call read by the next, gives a wrong sum.
        constexpr std::size_t kCalls = 200;
        const std::array<std::size_t, 4> sizes = {65'537, 5000, 1'048'583, 3};
        std::vector<SumCase> cases;
        std::vector<SumInput> inputs;
        std::vector<const int*> data;
        for (std::size_t i = 0; i < sizes.size(); ++i) {
            cases.push_back(course::grading::make_sum_case(sizes[i], -kMagnitude, kMagnitude, 500 + i));
            inputs.emplace_back(sizes[i]);
            data.push_back(inputs.back().put(cases.back().values, 0));
        }
        lesson09::Workspace workspace(sizes[2]);
        course::DeviceBuffer<long long> results(kCalls);
        Stream stream;
        results.fill_bytes(course::kPoisonByte, stream.get());
        workspace.poison(stream.get());
        course::grading::run_case("reduce_once, 200 calls in a row", [&] {
            for (std::size_t call = 0; call < kCalls; ++call)
                lesson09::reduce_once(data[call % sizes.size()], sizes[call % sizes.size()], results.data() + call,
                                      workspace, stream.get());
            COURSE_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
        });
        const auto got = results.download();
        for (std::size_t call = 0; call < kCalls; ++call)
            if (!check_result(got[call], cases[call % sizes.size()], 0,
                              " (call " + std::to_string(call + 1) + " of " + std::to_string(kCalls) +
                                  " in a row on one workspace)"))
                break;
        check_ticket(workspace, stream.get(), cases[(kCalls - 1) % sizes.size()], " (after 200 calls in a row)");
    }

    TEST_CASE("reduce_once is right on two streams at once, each call with its own workspace")
    {
        // Two calls that may run at the same time share nothing: state kept anywhere but the
        // workspace (a __device__ counter, say) mixes their tickets.
        constexpr int kRounds = 20;
        const auto first = course::grading::make_sum_case(4'194'301, -kMagnitude, kMagnitude, 600);
        const auto second = course::grading::make_sum_case(1'048'573, -kMagnitude, kMagnitude, 601);
        SumInput input_a(first.n);
        SumInput input_b(second.n);
        const int* data_a = input_a.put(first.values, 0);
        const int* data_b = input_b.put(second.values, 0);
        lesson09::Workspace workspace_a(first.n);
        lesson09::Workspace workspace_b(second.n);
        course::DeviceBuffer<long long> results_a(kRounds);
        course::DeviceBuffer<long long> results_b(kRounds);
        Stream stream_a;
        Stream stream_b;
        results_a.fill_bytes(course::kPoisonByte, stream_a.get());
        results_b.fill_bytes(course::kPoisonByte, stream_b.get());
        COURSE_CUDA_CHECK(cudaDeviceSynchronize());
        course::grading::run_case("reduce_once on two streams", [&] {
            for (int round = 0; round < kRounds; ++round) {
                lesson09::reduce_once(data_a, first.n, results_a.data() + round, workspace_a, stream_a.get());
                lesson09::reduce_once(data_b, second.n, results_b.data() + round, workspace_b, stream_b.get());
            }
            COURSE_CUDA_CHECK(cudaDeviceSynchronize());
        });
        const auto got_a = results_a.download();
        const auto got_b = results_b.download();
        for (int round = 0; round < kRounds; ++round) {
            const std::string when = " (stream A, call " + std::to_string(round + 1) + ", while stream B reduces " +
                                     std::to_string(second.n) + " elements)";
            if (!check_result(got_a[std::size_t(round)], first, 0, when) ||
                !check_result(got_b[std::size_t(round)], second, 0,
                              " (stream B, call " + std::to_string(round + 1) + ", while stream A reduces " +
                                  std::to_string(first.n) + " elements)"))
                break;
        }
    }

    TEST_CASE("reduce_once can be captured in a CUDA graph and replayed")
    {
        const std::size_t n = 1'048'583;
        SumInput input(n);
        lesson09::Workspace workspace(n);
        course::DeviceBuffer<long long> result(1);
        Stream stream;
        const auto first = course::grading::make_sum_case(n, -kMagnitude, kMagnitude, 700);
        const int* data = input.put(first.values, 0);
        (void)lesson09::reduce_once_plan();  // the module is loaded before the capture
        cudaGraph_t graph = nullptr;
        cudaGraphExec_t exec = nullptr;
        COURSE_CUDA_CHECK(cudaStreamBeginCapture(stream.get(), cudaStreamCaptureModeThreadLocal));
        try {
            lesson09::reduce_once(data, n, result.data(), workspace, stream.get());
        } catch (...) {
            cudaGraph_t ignored = nullptr;
            (void)cudaStreamEndCapture(stream.get(), &ignored);
            throw;
        }
        COURSE_CUDA_CHECK(cudaStreamEndCapture(stream.get(), &graph));
        COURSE_CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
        for (std::uint64_t replay = 0; replay < 4; ++replay) {
            // New contents at the same address each time: the graph's one launch must add them.
            const auto one =
                replay == 0 ? first : course::grading::make_sum_case(n, -kMagnitude, kMagnitude, 700 + replay);
            if (replay != 0)
                (void)input.put(one.values, 0);
            result.fill_bytes(course::kPoisonByte, stream.get());
            workspace.poison(stream.get());
            COURSE_CUDA_CHECK(cudaGraphLaunch(exec, stream.get()));
            COURSE_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
            if (!check_result(result.download()[0], one, 0,
                              " (replay " + std::to_string(replay + 1) + " of a captured graph)") ||
                !check_ticket(workspace, stream.get(), one, " (a captured graph)"))
                break;
        }
        COURSE_CUDA_CHECK(cudaGraphExecDestroy(exec));
        COURSE_CUDA_CHECK(cudaGraphDestroy(graph));
    }

    TEST_CASE("reduce_once orders each block's partial before its ticket")
    {
        // Right sums prove little here: without a release and an acquire, a GPU makes a ticket
        // visible before the partial stored ahead of it only now and then. The simulator's ordering
        // check follows each partial from the block that writes it to the block that reads it, and
        // stops the launch at a read that nothing orders after the write, naming both lines.
        if constexpr (!course::kOnSimulator) {
            MESSAGE("memory ordering: not visible on a GPU; ./course grade runs this test case again on the CPU "
                    "simulator, on these same modules, which follows each partial from its writer to the last block");
            return;
        }
        const auto one = course::grading::make_sum_case(1u << 20, -kMagnitude, kMagnitude, 900);
        try {
            SumInput input(one.n);
            const int* data = input.put(one.values, 0);
            lesson09::Workspace workspace(one.n);
            course::DeviceBuffer<long long> result(1);
            Stream stream;
            const long long sum = run_reduce_once(data, one.n, workspace, result, stream.get());
            if (check_result(sum, one, 0, " (under the ordering check)"))
                MESSAGE("reduce_once, " << lesson09::grid_for(one.n)
                                        << " blocks: every partial the last block "
                                           "read was ordered after its write (a release before the ticket, an "
                                           "acquire after it)");
        } catch (const course::CudaError& error) {
            const std::string what = error.what();
            if (what.find("ordering race") == std::string::npos)
                throw;
            FAIL_CHECK(course::failure::missing_fence.with(what.substr(what.find("global-memory ordering race")) + "." +
                                                           course::grading::hint_command()));
        }
    }

    TEST_CASE("reduce_once in one launch is faster than lesson 05's two launches at a small n")
    {
        const auto one = course::grading::make_sum_case(kTimedSize, -kMagnitude, kMagnitude, 300);
        SumInput input(one.n);
        int* data = input.put(one.values, 0);
        lesson09::Workspace workspace(one.n);
        lesson09::TwoLaunchReference two_launches(one.n);
        course::DeviceBuffer<long long> result(1);
        course::DeviceBuffer<long long> baseline_result(1);
        // Each timed run's sum checked, on an input changed at a few places before it.
        course::grading::CheckedSumRuns checked(data, one, result.data(), "reduce_once");
        const auto comparison = course::grading::compare_cases(
            {"lesson 05's reference (two launches)",
             {},
             [&](cudaStream_t s) { two_launches.run(data, one.n, baseline_result.data(), s); }},
            {"reduce_once", checked.setup(),
             [&](cudaStream_t s) { lesson09::reduce_once(data, one.n, result.data(), workspace, s); },
             checked.check()});

        // Still right after the timed runs, on new contents at the same address.
        Stream stream;
        const auto fresh = course::grading::make_sum_case(one.n, -kMagnitude, kMagnitude, 301);
        check_result(run_reduce_once(input.put(fresh.values, 0), one.n, workspace, result, stream.get()), fresh, 0,
                     " (after the timed runs, new contents at the same address)");
        const std::string hint = "Your launch: " + describe_launch(one.n) +
                                 ". At this size a call costs its launches and its round trips to memory, "
                                 "not its bytes: count both in yours.";
        course::grading::check_speedup(comparison, course::kOnSimulator ? kModelledSpeedup : kSpeedup, "reduce_once",
                                       "lesson 05's reference (two launches)", hint);
    }

    // Last: a kernel that faults here (a 16-byte load from an address that is not 16-byte aligned)
    // leaves the device unusable for the rest of the run.
    TEST_CASE("reduce_once works on any int pointer, not only 16-byte aligned ones")
    {
        course::grading::check_misaligned_sums(reduce_once_under_test, kMagnitude);
    }
}
