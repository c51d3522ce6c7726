// Lesson 02 grader: do index_parity_uniform and value_parity_uniform write exactly what the
// divergent kernels write, for every size and block size, and run faster than them?
//
// The student's kernels come from their module (the lesson's host code in student_kernels.cpp
// launches them); nothing the student wrote runs on this program's host side.
//
//   ./course grade 02                    # builds your module from exercises/ and runs this on it
//   build/gpu/lessons/lesson02_grader --seed=1234   # repeat a run with its printed seed
//   build/gpu/lessons/lesson02_grader --modules=build/gpu/modules/solution   # the reference

#include "divergence.hpp"

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
#include <string>
#include <string_view>
#include <vector>

namespace {

/// Output elements past n, poisoned: a kernel that writes beyond the array is caught.
constexpr std::size_t kGuard = 256;
constexpr int kPoison = 0x7f7f7f7f;

/// What the inputs look like: random values (half even), or all of one parity (one list empty).
enum class Pattern { random, all_even, all_odd };

std::vector<int> make_input(std::size_t n, std::uint64_t seed, Pattern pattern)
{
    auto values = course::random_ints(n, seed, INT_MIN, INT_MAX);
    for (auto& value : values) {
        if (pattern == Pattern::all_even)
            value &= ~1;
        else if (pattern == Pattern::all_odd)
            value |= 1;
    }
    return values;
}

const char* pattern_text(Pattern pattern)
{
    if (pattern == Pattern::random)
        return "random values";
    return pattern == Pattern::all_even ? "all values even" : "all values odd";
}

class MapBench {
public:
    explicit MapBench(const std::vector<int>& input)
        : in_(padded(input, 0)), out_(input.size() + kGuard), n_(input.size())
    {
    }

    /// New contents for the same input buffer: a kernel that replays an answer it remembered for
    /// these addresses is wrong afterwards.
    void replace_input(const std::vector<int>& input) { in_.upload(std::span<const int>(padded(input, 0))); }

    /// in[at] becomes `value` and out[at] the poison, on `stream` (a timed run's setup; `value` must
    /// outlive the copy's staging, which pageable memory finishes before the call returns).
    void change(std::size_t at, const int& value, cudaStream_t stream)
    {
        COURSE_CUDA_CHECK(cudaMemcpyAsync(in_.data() + at, &value, sizeof value, cudaMemcpyHostToDevice, stream));
        COURSE_CUDA_CHECK(cudaMemsetAsync(out_.data() + at, 0x7f, sizeof(int), stream));
    }
    /// out[at] after the work on `stream`.
    int output_at(std::size_t at, cudaStream_t stream)
    {
        int got = 0;
        COURSE_CUDA_CHECK(cudaMemcpyAsync(&got, out_.data() + at, sizeof got, cudaMemcpyDeviceToHost, stream));
        COURSE_CUDA_CHECK(cudaStreamSynchronize(stream));
        return got;
    }

    void launch(lesson02::MapLauncher launch, unsigned block, cudaStream_t stream)
    {
        launch(in_.data(), out_.data(), n_, block, stream);
        COURSE_CHECK_LAUNCH();
    }
    std::vector<int> run_once(lesson02::MapLauncher launch, unsigned block)
    {
        out_.fill_bytes(0x7f);
        this->launch(launch, block, nullptr);
        COURSE_CUDA_CHECK(cudaDeviceSynchronize());
        return out_.download();
    }

private:
    static std::vector<int> padded(const std::vector<int>& values, int fill)
    {
        std::vector<int> data(values);
        data.resize(values.size() + kGuard, fill);
        return data;
    }
    course::DeviceBuffer<int> in_;
    course::DeviceBuffer<int> out_;
    std::size_t n_;
};

/// The first wrong element as a message starting with "wrong result:" or "not written:", or nothing.
std::optional<std::string> compare_output(const std::vector<int>& got, const std::vector<int>& expected,
                                          const std::vector<int>& input, const std::string& where)
{
    const std::size_t n = expected.size();
    for (std::size_t j = n; j < got.size(); ++j)
        if (got[j] != kPoison)
            return course::failure::wrong_result.with(where + ": out[" + std::to_string(j) +
                                                      "] lies past the end of the " + std::to_string(n) +
                                                      " elements, yet it was written");
    std::size_t wrong = 0;
    std::size_t first = 0;
    for (std::size_t i = 0; i < n; ++i)
        if (got[i] != expected[i] && wrong++ == 0)
            first = i;
    if (wrong == 0)
        return std::nullopt;
    const std::string element = "out[" + std::to_string(first) + "] (index " + (first % 2 == 0 ? "even" : "odd") +
                                ", in[" + std::to_string(first) + "] = " + std::to_string(input[first]) + ", " +
                                (input[first] % 2 == 0 ? "even" : "odd") + ")";
    const std::string tail = "; " + std::to_string(wrong) + " of " + std::to_string(n) + " elements are wrong";
    if (got[first] == kPoison)
        return course::failure::not_written.with(where + ": " + element + " was never written" + tail);
    const std::string which =
        got[first] == static_cast<int>(lesson02::even_path(std::uint32_t(input[first])))  ? " (the even path's result)"
        : got[first] == static_cast<int>(lesson02::odd_path(std::uint32_t(input[first]))) ? " (the odd path's result)"
                                                                                          : "";
    return course::failure::wrong_result.with(where + ": " + element + " holds " + std::to_string(got[first]) + which +
                                              ", expected " + std::to_string(expected[first]) + tail);
}

std::string case_text(std::string_view kernel, std::size_t n, unsigned block, Pattern pattern, std::uint64_t seed)
{
    return std::string(kernel) + ", n = " + std::to_string(n) + ", block = " + std::to_string(block) + " (" +
           pattern_text(pattern) + ", input seed " + std::to_string(seed) + ")";
}

/// The largest size: smaller on the simulator, where every iteration of the kernels' loops is
/// interpreted.
constexpr std::size_t kLarge = course::size_for_backend(1'000'003, 200'003);

std::vector<std::size_t> sizes()
{
    return course::grading::for_this_run(
        {1, 31, 32, 33, 63, 64, 65, 511, 512, 513, 1023, 1024, 1025, 4097, 65'537, kLarge});
}

void check_map(lesson02::MapLauncher launch, std::string_view kernel, lesson02::Output output,
               const std::vector<std::size_t>& sizes, const std::vector<unsigned>& blocks,
               Pattern pattern = Pattern::random)
{
    std::uint64_t case_index = 0;
    for (const std::size_t n : sizes) {
        const std::uint64_t seed = course::derive_seed(course::grading::run_seed(), 0x0200 + ++case_index);
        const auto input = make_input(n, seed, pattern);
        const auto expected = lesson02::expected_output(output, input);
        MapBench bench(input);
        for (const unsigned block : blocks) {
            const auto where = case_text(kernel, n, block, pattern, seed);
            const auto got = course::grading::run_case(where, [&] { return bench.run_once(launch, block); });
            if (const auto problem = compare_output(got, expected, input, where))
                FAIL_CHECK(*problem);
        }
    }
}

/// On the simulator: the share of each warp's lanes that do work, which divergence halves, and the
/// modelled time, which must show a speedup too.
void check_lanes_busy(MapBench& bench, lesson02::MapLauncher baseline, lesson02::MapLauncher candidate, std::size_t n,
                      unsigned block, double lanes_busy, std::string_view candidate_name,
                      std::string_view baseline_name, std::string_view hint)
{
    course::Stream stream;
    course::grading::ProfiledPair pair;
    pair.baseline = course::profile([&](cudaStream_t s) { bench.launch(baseline, block, s); }, stream.get());
    pair.candidate = course::profile([&](cudaStream_t s) { bench.launch(candidate, block, s); }, stream.get());
    pair.n = n;
    pair.block = block;
    const auto& before = pair.baseline;
    const auto& yours = pair.candidate;
    course::grading::check_technique(
        {std::string(candidate_name), "warp execution efficiency (active lanes per instruction)",
         100 * yours.warp_execution_efficiency(), 100 * lanes_busy, false, "%",
         std::string(baseline_name) + " -> yours: warp execution efficiency " +
             course::fixed(100 * before.warp_execution_efficiency(), 1) + "% -> " +
             course::fixed(100 * yours.warp_execution_efficiency(), 1) + "%, branch efficiency " +
             course::fixed(100 * before.branch_efficiency(), 1) + "% -> " +
             course::fixed(100 * yours.branch_efficiency(), 1) + "%, divergent branches " +
             std::to_string(before.divergent_branches) + " -> " + std::to_string(yours.divergent_branches) +
             ", instructions/warp " + course::fixed(before.instructions_per_warp(), 1) + " -> " +
             course::fixed(yours.instructions_per_warp(), 1) + ", modelled " + course::fixed(before.modelled_ms, 3) +
             " -> " + course::fixed(yours.modelled_ms, 3) + " ms, n = " + std::to_string(n) + ", block " +
             std::to_string(block)},
        hint);
    course::grading::check_modelled_speedup(pair, candidate_name, baseline_name, hint);
}

/// The speed check at one size and block size: timed on a GPU, profiled on the simulator; then the
/// candidate must still be right on new contents in the same buffers (an answer remembered from an
/// earlier call is wrong now).
void check_faster_at(std::size_t n, unsigned block, lesson02::MapLauncher baseline, lesson02::MapLauncher candidate,
                     lesson02::Output output, double threshold, double lanes_busy, std::string_view candidate_name,
                     std::string_view baseline_name, std::string_view hint)
{
    const std::uint64_t seed = course::derive_seed(course::grading::run_seed(), 0xBE7C4 + n);
    const auto input = make_input(n, seed, Pattern::random);
    MapBench bench(input);
    if constexpr (course::kOnSimulator) {
        check_lanes_busy(bench, baseline, candidate, n, block, lanes_busy, candidate_name, baseline_name, hint);
    } else {
        // Every timed run checked: a few elements change before it and their outputs are poisoned,
        // and after it each of them must hold its new result.
        std::vector<int> current = input;
        std::vector<std::size_t> changed;
        course::grading::CheckedRuns checked(
            seed,
            [&](std::mt19937_64& random, cudaStream_t s) {
                changed.clear();
                for (int k = 0; k < course::grading::CheckedRuns::kChangesPerRun; ++k) {
                    const std::size_t at = random() % n;
                    current[at] = static_cast<int>(static_cast<std::uint32_t>(random()));
                    changed.push_back(at);
                    bench.change(at, current[at], s);
                }
            },
            [&](cudaStream_t s, const std::string& when) -> std::optional<std::string> {
                for (const std::size_t at : changed) {
                    const int got = bench.output_at(at, s);
                    const int want = lesson02::expected_element(output, at, current[at]);
                    if (got == want)
                        continue;
                    const std::string where = case_text(candidate_name, n, block, Pattern::random, seed) + " (" + when +
                                              "): out[" + std::to_string(at) + "]";
                    if (got == kPoison)
                        return course::failure::not_written.with(where + " still holds the poison the grader wrote");
                    return course::failure::wrong_result.with(where + " = " + std::to_string(got) + ", expected " +
                                                              std::to_string(want) + " for in[" + std::to_string(at) +
                                                              "] = " + std::to_string(current[at]));
                }
                return std::nullopt;
            });
        const auto comparison = course::grading::compare_cases(
            {"baseline", {}, [&](cudaStream_t s) { bench.launch(baseline, block, s); }},
            {"candidate", checked.setup(), [&](cudaStream_t s) { bench.launch(candidate, block, s); },
             checked.check()});
        course::grading::check_speedup(comparison, threshold, candidate_name, baseline_name, hint);
    }
    const std::uint64_t fresh = course::derive_seed(seed, 0xF2E54);
    const auto new_input = make_input(n, fresh, Pattern::random);
    bench.replace_input(new_input);
    if (const auto problem =
            compare_output(bench.run_once(candidate, block), lesson02::expected_output(output, new_input), new_input,
                           std::string(course::kOnSimulator ? "after profiling, " : "after the timed runs, ") +
                               case_text(candidate_name, n, block, Pattern::random, fresh)))
        FAIL_CHECK(*problem);
}

/// On a GPU, timed at 2^24 values in blocks of 256; on the simulator, profiled at two shapes, so that
/// a kernel fast at one size and block only does not pass.
void check_faster(lesson02::MapLauncher baseline, lesson02::MapLauncher candidate, lesson02::Output output,
                  double threshold, double lanes_busy, std::string_view candidate_name, std::string_view baseline_name,
                  std::string_view hint)
{
    constexpr unsigned kBlock = 256;
    if constexpr (course::kOnSimulator) {
        for (const auto& shape : course::grading::profiled_shapes(kBlock))
            check_faster_at(shape.n, shape.block, baseline, candidate, output, threshold, lanes_busy, candidate_name,
                            baseline_name, hint);
    } else {
        check_faster_at(std::size_t{1} << 24, kBlock, baseline, candidate, output, threshold, lanes_busy,
                        candidate_name, baseline_name, hint);
    }
}

// Calibrated on the course's GPU (lessons/02_divergence/README.md): the references run 1.71x and
// 1.40x faster than the divergent kernels there, the unchanged starters 1.00x.
constexpr double kIndexThreshold = manifest::threshold("index_parity_uniform", manifest::Backend::gpu);
constexpr double kValueThreshold = manifest::threshold("value_parity_uniform", manifest::Backend::gpu);
// On the simulator: the lanes that work per instruction. The divergent kernels keep 52% of them
// busy; the references 99% (by index) and 88% (by value: sorting costs some divergence).
constexpr double kIndexLanesBusy = manifest::threshold("index_parity_uniform", manifest::Backend::sim) / 100;
constexpr double kValueLanesBusy = manifest::threshold("value_parity_uniform", manifest::Backend::sim) / 100;

}  // namespace

TEST_SUITE("lesson02")
{
    TEST_CASE("the divergent baselines match the host references" * doctest::test_suite("baselines"))
    {
        const std::vector<unsigned> blocks = {32, 256, 1024};
        check_map(lesson02::launch_index_parity_divergent, "index_parity_divergent", lesson02::Output::index_parity,
                  {1, 33, kLarge}, blocks);
        check_map(lesson02::launch_value_parity_divergent, "value_parity_divergent", lesson02::Output::value_parity,
                  {1, 33, kLarge}, blocks);
        check_map(lesson02::launch_warp_parity, "warp_parity", lesson02::Output::warp_parity, {1, 33, kLarge}, blocks);
    }

    TEST_CASE("index_parity_uniform writes exactly what index_parity_divergent writes")
    {
        check_map(lesson02::launch_index_parity_uniform, "index_parity_uniform", lesson02::Output::index_parity,
                  sizes(), course::grading::power_of_two_blocks());
    }

    TEST_CASE("value_parity_uniform writes exactly what value_parity_divergent writes")
    {
        const auto blocks = course::grading::power_of_two_blocks();
        check_map(lesson02::launch_value_parity_uniform, "value_parity_uniform", lesson02::Output::value_parity,
                  sizes(), blocks);
        for (const Pattern pattern : {Pattern::all_even, Pattern::all_odd})
            check_map(lesson02::launch_value_parity_uniform, "value_parity_uniform", lesson02::Output::value_parity,
                      {33, kLarge}, blocks, pattern);
    }

    TEST_CASE("index_parity_uniform is faster than index_parity_divergent")
    {
        check_faster(lesson02::launch_index_parity_divergent, lesson02::launch_index_parity_uniform,
                     lesson02::Output::index_parity, kIndexThreshold, kIndexLanesBusy, "index_parity_uniform",
                     "index_parity_divergent",
                     "Its warps still hold elements of both parities, so each warp runs both paths one after the "
                     "other with half its lanes idle (see the warp execution efficiency above).");
    }

    TEST_CASE("value_parity_uniform is faster than value_parity_divergent")
    {
        check_faster(lesson02::launch_value_parity_divergent, lesson02::launch_value_parity_uniform,
                     lesson02::Output::value_parity, kValueThreshold, kValueLanesBusy, "value_parity_uniform",
                     "value_parity_divergent",
                     "Its warps still meet even and odd values, so each warp runs both heavy paths one after the "
                     "other (see the warp execution efficiency above).");
    }
}
