// Lesson 01 grader: does record_layout place every thread of every grid and block shape exactly
// where the hardware does, and does count_per_warp count exactly, faster than one atomic per thread?
//
// The student's kernels come from their modules (the lesson's host code in student_kernels.cpp
// launches them); nothing the student wrote runs on this program's host side.
//
//   ./course grade 01                    # builds your modules from exercises/ and runs this on them
//   build/gpu/lessons/lesson01_grader --seed=1234   # repeat a run with its printed seed
//   build/gpu/lessons/lesson01_grader --modules=build/gpu/modules/solution   # the reference

#include "warp_basics.hpp"

#include "course/backend.hpp"
#include "course/checked_runs.hpp"
#include "course/cuda_check.hpp"
#include "course/cuda_handles.hpp"
#include "course/data.hpp"
#include "course/device_buffer.hpp"
#include "course/failures.hpp"
#include "course/grading.hpp"
#include "course/results.hpp"
#include "course/table.hpp"
#include "lesson_checks.hpp"

#include <doctest/doctest.h>

#include <climits>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <random>
#include <span>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace {

using lesson01::ThreadLayout;

// ---------------------------------------------------------------------------------------------
// Exercise 1: the layout of every thread

struct Shape {
    dim3 grid;
    dim3 block;
};

/// 1-D first, then 2-D, then 3-D; blocks of 1, 31, 33, 105 ... threads leave a partial last warp.
std::vector<Shape> layout_shapes()
{
    return {
        {{1, 1, 1}, {1, 1, 1}},      {{3, 1, 1}, {32, 1, 1}},    {{2, 1, 1}, {33, 1, 1}}, {{4, 1, 1}, {31, 1, 1}},
        {{5, 1, 1}, {1024, 1, 1}},   {{1, 1, 1}, {8, 4, 1}},     {{2, 3, 1}, {8, 4, 1}},  {{1, 1, 1}, {16, 16, 1}},
        {{4, 1, 2}, {2, 32, 1}},     {{1, 1000, 1}, {32, 1, 1}}, {{3, 5, 1}, {7, 9, 1}},  {{1, 2, 1}, {1, 1, 64}},
        {{3, 2, 2}, {5, 7, 3}},      {{2, 2, 3}, {4, 4, 4}},     {{7, 5, 3}, {11, 3, 2}}, {{1, 1, 9}, {3, 1, 5}},
        {{40, 20, 3}, {10, 10, 10}}, {{65, 2, 1}, {96, 2, 1}},
    };
}

std::string triple(std::uint32_t x, std::uint32_t y, std::uint32_t z)
{
    std::ostringstream text;  // (not "(" + std::to_string(...): GCC 12 warns about it wrongly)
    text << '(' << x << ", " << y << ", " << z << ')';
    return text.str();
}

std::string dims(dim3 d)
{
    return triple(d.x, d.y, d.z);
}

std::string coords(const lesson01::Coords& c)
{
    return triple(c.x, c.y, c.z);
}

std::string fields(const ThreadLayout& t)
{
    return "{written by thread " + coords(t.thread_idx) + " of block " + coords(t.block_idx) + ": thread " +
           std::to_string(t.thread) + ", warp " + std::to_string(t.warp) + ", lane " + std::to_string(t.lane) +
           ", global " + std::to_string(t.global) + "}";
}

/// "thread (x, y, z) of block (x, y, z)": who should have written entry `global`.
std::string who(const ThreadLayout& expected)
{
    return "thread " + coords(expected.thread_idx) + " of block " + coords(expected.block_idx);
}

bool poisoned(const ThreadLayout& t)
{
    return t.global == UINT32_MAX && t.thread == UINT32_MAX;
}

/// Entries written past the grid's last thread are caught too: the output has a poisoned tail.
constexpr std::size_t kGuardEntries = 64;

std::optional<std::string> check_layout(const Shape& shape)
{
    const auto expected = lesson01::expected_layout(shape.grid, shape.block);
    course::DeviceBuffer<ThreadLayout> out(expected.size() + kGuardEntries);
    out.fill_bytes(0xff);  // every field 0xffffffff: "never written"
    const std::string running = "record_layout, grid " + dims(shape.grid) + ", block " + dims(shape.block);
    // What is wrong with a result, if anything: also what tells a wrong result from a race.
    const auto problem = [&](const std::vector<ThreadLayout>& got) -> std::optional<std::string> {
        const std::string where = running + ": ";
        std::size_t bad = 0;
        std::optional<std::size_t> first;
        for (std::size_t g = 0; g < expected.size(); ++g)
            if (got[g] != expected[g] && bad++ == 0)
                first = g;
        for (std::size_t g = expected.size(); g < got.size(); ++g)
            if (!poisoned(got[g]))
                return course::failure::wrong_result.with(
                    where + "out[" + std::to_string(g) + "] lies past the last of the grid's " +
                    std::to_string(expected.size()) + " threads, yet it was written (" + fields(got[g]) + ")");
        if (!first)
            return std::nullopt;
        const std::size_t g = *first;
        const std::string tail =
            "; " + std::to_string(bad) + " of " + std::to_string(expected.size()) + " entries are wrong";
        if (poisoned(got[g]))
            return course::failure::not_written.with(
                where + "out[" + std::to_string(g) + "], the entry of " + who(expected[g]) +
                ", was never written (no thread computed global id " + std::to_string(g) + ")" + tail);
        return course::failure::wrong_result.with(where + "out[" + std::to_string(g) + "], the entry of " +
                                                  who(expected[g]) + ", holds " + fields(got[g]) + "; expected " +
                                                  fields(expected[g]) + tail);
    };
    const auto got = course::grading::run_case(
        running,
        [&] {
            lesson01::launch_record_layout(shape.grid, shape.block, out.data(), nullptr);
            COURSE_CHECK_LAUNCH();
            COURSE_CUDA_CHECK(cudaDeviceSynchronize());
            return out.download();
        },
        [&](const std::vector<ThreadLayout>& result) { return !problem(result); });
    return problem(got);
}

// ---------------------------------------------------------------------------------------------
// Exercise 2: counting with votes

/// Values in [-kRange, kRange]: many repeats, so values equal to the threshold occur (a `<=` fails).
constexpr int kRange = 1000;
/// Past the end of the data every value is below any threshold: a kernel that reads beyond n counts them.
constexpr std::size_t kGuardValues = 1024;
constexpr unsigned long long kPoisonCount = 0x7f7f7f7f7f7f7f7full;

class CountBench {
public:
    explicit CountBench(const std::vector<int>& values) : data_(padded(values)), count_(1), n_(values.size()) {}

    /// New contents for the same data buffer: a kernel that replays a count it remembered for
    /// this address is wrong afterwards.
    void replace_values(const std::vector<int>& values)
    {
        if (values.size() != n_)
            throw std::invalid_argument("CountBench::replace_values: the new values must hold n elements");
        data_.upload(std::span<const int>(padded(values)));
    }

    /// Element `at` becomes `value`, on `stream` (a timed run's setup; `value` must outlive the copy's
    /// staging, which pageable memory finishes before the call returns).
    void set_value(std::size_t at, const int& value, cudaStream_t stream)
    {
        COURSE_CUDA_CHECK(cudaMemcpyAsync(data_.data() + at, &value, sizeof value, cudaMemcpyHostToDevice, stream));
    }
    /// The count the last launch on `stream` left.
    unsigned long long read_count(cudaStream_t stream)
    {
        unsigned long long got = 0;
        COURSE_CUDA_CHECK(cudaMemcpyAsync(&got, count_.data(), sizeof got, cudaMemcpyDeviceToHost, stream));
        COURSE_CUDA_CHECK(cudaStreamSynchronize(stream));
        return got;
    }

    void launch(lesson01::CountLauncher launch, int threshold, unsigned block, cudaStream_t stream)
    {
        launch(data_.data(), n_, threshold, count_.data(), block, stream);
        COURSE_CHECK_LAUNCH();
    }
    unsigned long long run_once(lesson01::CountLauncher launch, int threshold, unsigned block)
    {
        count_.fill_bytes(0x7f);
        this->launch(launch, threshold, block, nullptr);
        COURSE_CUDA_CHECK(cudaDeviceSynchronize());
        return count_.download()[0];
    }

private:
    static std::vector<int> padded(const std::vector<int>& values)
    {
        std::vector<int> data(values);
        data.resize(values.size() + kGuardValues, INT_MIN);
        return data;
    }
    course::DeviceBuffer<int> data_;
    course::DeviceBuffer<unsigned long long> count_;
    std::size_t n_;
};

std::string count_case(std::string_view kernel, std::size_t n, unsigned block, int threshold, std::uint64_t seed)
{
    return std::string(kernel) + ", n = " + std::to_string(n) + ", block = " + std::to_string(block) +
           ", threshold = " + std::to_string(threshold) + " (values " + std::to_string(-kRange) + ".." +
           std::to_string(kRange) + ", input seed " + std::to_string(seed) + ")";
}

std::optional<std::string> compare_count(unsigned long long got, unsigned long long expected, const std::string& where)
{
    if (got == expected)
        return std::nullopt;
    if (got == kPoisonCount)
        return course::failure::not_written.with(where +
                                                 ": the counter still holds the poison value the grader wrote: the "
                                                 "lesson's launcher did not reset it to 0");
    std::ostringstream text;
    text << course::failure::wrong_result << " " << where << ": counted " << got << ", expected " << expected;
    if (got > expected)
        text << " (" << got - expected << " too many)";
    else
        text << " (" << expected - got << " too few)";
    return text.str();
}

void check_count(lesson01::CountLauncher launch, std::string_view kernel, const std::vector<std::size_t>& sizes,
                 const std::vector<unsigned>& blocks)
{
    std::uint64_t case_index = 0;
    for (const std::size_t n : sizes) {
        const std::uint64_t seed = course::derive_seed(course::grading::run_seed(), 0x01C0 + ++case_index);
        const auto values = course::random_ints(n, seed, -kRange, kRange);
        CountBench bench(values);
        // Half the values, none of them, all of them, and one drawn from the data.
        const int thresholds[] = {0, -kRange, kRange + 1, values[n / 2]};
        for (const unsigned block : blocks)
            for (const int threshold : thresholds) {
                const auto where = count_case(kernel, n, block, threshold, seed);
                const auto got =
                    course::grading::run_case(where, [&] { return bench.run_once(launch, threshold, block); });
                if (const auto problem = compare_count(got, lesson01::count_below(values, threshold), where))
                    FAIL_CHECK(*problem);
            }
    }
}

// Calibrated on the course's GPU (lessons/01_warp_basics/README.md): the reference runs about 30x
// faster than one atomic per thread there, the unchanged starter 1.00x.
constexpr double kSpeedupThreshold = manifest::threshold("count_per_warp", manifest::Backend::gpu);
constexpr std::size_t kTimedSize = std::size_t{1} << 24;
constexpr unsigned kTimedBlock = 256;
// On the simulator: updates of the counter per warp; the reference sends 1, the starter 32.
constexpr double kMostUpdatesPerWarp = manifest::threshold("count_per_warp", manifest::Backend::sim);

constexpr const char* kHint =
    "The one counter still receives about as many updates as there are threads below the threshold, "
    "and they queue up on its single address (see the atomic updates above).";

/// On the simulator: what makes count_per_warp fast is how few updates reach the one counter; and
/// its modelled time must show the speedup a GPU is held to.
void check_updates_per_warp(CountBench& bench, int threshold, std::size_t n, unsigned block)
{
    course::Stream stream;
    course::grading::ProfiledPair pair;
    pair.baseline = course::profile(
        [&](cudaStream_t s) { bench.launch(lesson01::launch_count_per_thread, threshold, block, s); }, stream.get());
    pair.candidate = course::profile(
        [&](cudaStream_t s) { bench.launch(lesson01::launch_count_per_warp, threshold, block, s); }, stream.get());
    pair.n = n;
    pair.block = block;
    const auto& baseline = pair.baseline;
    const auto& yours = pair.candidate;
    course::grading::check_technique(
        {"count_per_warp", "atomic updates of the counter per warp", yours.atomic_updates_per_warp(),
         kMostUpdatesPerWarp, true, "",
         "atomic updates " + std::to_string(baseline.atomic_updates) + " -> " + std::to_string(yours.atomic_updates) +
             " for " + std::to_string(yours.warps) + " warps, atomic instructions " +
             std::to_string(baseline.atomic_instructions) + " -> " + std::to_string(yours.atomic_instructions) +
             ", modelled " + course::fixed(baseline.modelled_ms, 3) + " -> " + course::fixed(yours.modelled_ms, 3) +
             " ms, n = " + std::to_string(n) + ", block " + std::to_string(block)},
        kHint);
    course::grading::check_modelled_speedup(pair, "count_per_warp", "count_per_thread", kHint);
}

/// The speed check at one size and block size: timed on a GPU, profiled on the simulator; then
/// count_per_warp must still be right on new contents in the same buffers (a count remembered from
/// an earlier call is wrong now).
void check_faster_at(std::size_t n, unsigned block)
{
    const std::uint64_t seed = course::derive_seed(course::grading::run_seed(), 0xBE7C4 + n);
    const auto values = course::random_ints(n, seed, -kRange, kRange);
    const int threshold = 0;
    CountBench bench(values);
    std::optional<course::grading::Comparison> comparison;
    if constexpr (course::kOnSimulator) {
        check_updates_per_warp(bench, threshold, n, block);
    } else {
        // Every timed run's count checked, the input changed at random places before it.
        std::vector<int> current = values;
        unsigned long long expected = lesson01::count_below(values, threshold);
        course::grading::CheckedRuns checked(
            seed,
            [&](std::mt19937_64& random, cudaStream_t s) {
                for (int k = 0; k < course::grading::CheckedRuns::kChangesPerRun; ++k) {
                    const std::size_t at = random() % n;
                    const int value = static_cast<int>(random() % (2 * kRange + 1)) - kRange;
                    expected = expected - (current[at] < threshold ? 1 : 0) + (value < threshold ? 1 : 0);
                    current[at] = value;
                    bench.set_value(at, current[at], s);
                }
            },
            [&](cudaStream_t s, const std::string& when) {
                return compare_count(bench.read_count(s), expected,
                                     count_case("count_per_warp", n, block, threshold, seed) + " (" + when + ")");
            });
        comparison = course::grading::compare_cases(
            {"baseline",
             {},
             [&](cudaStream_t s) { bench.launch(lesson01::launch_count_per_thread, threshold, block, s); }},
            {"candidate", checked.setup(),
             [&](cudaStream_t s) { bench.launch(lesson01::launch_count_per_warp, threshold, block, s); },
             checked.check()});
    }
    const std::uint64_t fresh = course::derive_seed(seed, 0xF2E54);
    const auto new_values = course::random_ints(n, fresh, -kRange, kRange);
    bench.replace_values(new_values);
    if (const auto problem = compare_count(bench.run_once(lesson01::launch_count_per_warp, threshold, block),
                                           lesson01::count_below(new_values, threshold),
                                           (course::kOnSimulator ? "after profiling, " : "after the timed runs, ") +
                                               count_case("count_per_warp", n, block, threshold, fresh)))
        FAIL_CHECK(*problem);
    if (comparison)
        course::grading::check_speedup(*comparison, kSpeedupThreshold, "count_per_warp", "count_per_thread", kHint);
}

}  // namespace

TEST_SUITE("lesson01")
{
    TEST_CASE("record_layout places every thread of every grid and block shape")
    {
        for (const auto& shape : layout_shapes())
            if (const auto problem = check_layout(shape))
                FAIL_CHECK(*problem << course::grading::hint_command());
    }

    TEST_CASE("the baselines count exactly" * doctest::test_suite("baselines"))
    {
        check_count(lesson01::launch_count_per_thread, "count_per_thread", {1, 33, 1'000'003}, {32, 256});
        check_count(lesson01::launch_count_compiler_aggregated, "count_compiler_aggregated", {1, 33, 1'000'003},
                    {32, 256});
    }

    TEST_CASE("count_per_warp counts exactly for every size and block size")
    {
        check_count(lesson01::launch_count_per_warp, "count_per_warp", course::grading::awkward_sizes(),
                    course::grading::power_of_two_blocks());
    }

    TEST_CASE("count_per_warp is faster than one atomic per thread")
    {
        // On the simulator at two shapes, so that a kernel fast at one size and block only fails.
        if constexpr (course::kOnSimulator) {
            for (const auto& shape : course::grading::profiled_shapes(kTimedBlock))
                check_faster_at(shape.n, shape.block);
        } else {
            check_faster_at(kTimedSize, kTimedBlock);
        }
    }
}
