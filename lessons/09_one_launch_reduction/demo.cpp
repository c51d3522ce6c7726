// Lesson 09 demo: the whole sum in one launch against two. For one n, every way the course knows
// to sum an int array, timed two ways: as a single call (L2 flushed before it, medians), and as
// many calls back to back (the time per call of a queue of them), with cub::DeviceReduce::Sum as
// the yardstick of both.
//
//   ./course run 09                      # reduce_once with your module (exercises/), 2^20 ints
//   ./course run 09 --solution           # with the reference module (solutions/)
//   ./course run 09 --solution --n 2^14 --seed 1 --json n14.json   # one point of the lesson's plot

#include "one_launch.hpp"

#include "global_reduction.hpp"

#include "course/backend.hpp"
#include "course/benchmark.hpp"
#include "course/cli.hpp"
#include "course/cuda_check.hpp"
#include "course/cuda_handles.hpp"
#include "course/data.hpp"
#include "course/demo.hpp"
#include "course/device.hpp"
#include "course/module.hpp"
#include "course/reduction.hpp"
#include "course/report.hpp"
#include "course/stats.hpp"
#include "course/table.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <iostream>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace {

constexpr int kInputMax = 255;

struct Row {
    std::string name;
    std::string grid;
    std::function<void(cudaStream_t)> run;
    long long* result;
};

course::DemoSpec spec()
{
    return {.program = COURSE_PROGRAM,
            .description = "one launch against two: CUB, lesson 05's reference, your reduce_once, the lesson's designs "
                           "(lesson 09)",
            .default_n = course::size_for_backend(std::size_t{1} << 20, std::size_t{1} << 16),
            .default_block = 256,
            .allowed_blocks = {256},
            .allowed_blocks_text = "256 (the lesson's designs; reduce_once's block is the one your module states)",
            .kernels = {"cub", "two_launches", "reduce_once", "designs"}};
}

/// Calls queued back to back: enough to hide the host's enqueueing, at least 10.
int back_to_back_calls(std::size_t n)
{
    if (course::kOnSimulator)
        return 3;
    return int(std::clamp<std::size_t>((std::size_t{1} << 28) / n, 10, 1000));
}

/// Median time per call, in ms, of `calls` calls queued back to back, over `repeats` such queues.
course::TimingSummary time_back_to_back(const Row& row, int calls, int repeats, cudaStream_t stream)
{
    course::Event start;
    course::Event stop;
    for (int warm = 0; warm < (course::kOnSimulator ? 0 : 3); ++warm)
        row.run(stream);
    std::vector<float> per_call;
    for (int repeat = 0; repeat < repeats; ++repeat) {
        COURSE_CUDA_CHECK(cudaEventRecord(start.get(), stream));
        for (int call = 0; call < calls; ++call)
            row.run(stream);
        COURSE_CUDA_CHECK(cudaEventRecord(stop.get(), stream));
        COURSE_CUDA_CHECK(cudaEventSynchronize(stop.get()));
        per_call.push_back(stop.milliseconds_since(start) / float(calls));
    }
    return course::summarize(per_call);
}

std::string microseconds(double milliseconds)
{
    return course::fixed(1000 * milliseconds, milliseconds < 0.1 ? 2 : 1);
}

int run(const course::DemoOptions& options, const course::DeviceInfo& device)
{
    const std::size_t n = options.n;
    course::print_heading(std::cout, COURSE_PROGRAM, "the whole reduction in one launch (lesson 09)", device);
    std::cout << course::int_array_text(n, kInputMax, options.seed, 3) << '\n';
    const double bytes = double(n) * sizeof(int);
    const auto input = course::random_ints(n, options.seed, 0, kInputMax);
    const long long expected = course::exact_sum(input);
    std::cout << "exact sum " << expected << '\n';

    const course::DeviceBuffer<int> data{std::span<const int>(input)};
    course::DeviceBuffer<long long> results(8);
    lesson05::CubSum cub(n);
    lesson09::TwoLaunchReference two_launches(n);
    lesson09::Workspace workspace(n);  // loads the module and checks reduce_once_launch
    lesson09::Designs designs(n);
    const auto& plan = lesson09::reduce_once_plan();
    const std::string code = course::student_code_label(lesson09::kLesson);
    std::cout << "reduce_once with the kernel of " << code << ": " << lesson09::grid_for(n) << " blocks of "
              << plan.launch.block << " threads (max(1, min(ceil(n / (" << plan.launch.block << " x "
              << plan.launch.items_per_thread << ")), " << plan.launch.max_blocks_per_sm << " x " << plan.sm_count
              << " SMs)); one SM holds " << plan.resident_blocks_per_sm << " of them at a time)\n\n";

    const bool all = options.kernel == "all";
    std::vector<Row> rows;
    long long* out = results.data();
    const int* in = data.data();
    if (all || options.kernel == "cub")
        rows.push_back(
            {"cub::DeviceReduce::Sum", "", [&cub, in, n, out](cudaStream_t s) { cub.run(in, n, out, s); }, out});
    if (all || options.kernel == "two_launches")
        rows.push_back({"lesson 05 reference (two launches)", std::to_string(two_launches.grid(n)),
                        [&two_launches, in, n, out](cudaStream_t s) { two_launches.run(in, n, out + 1, s); }, out + 1});
    if (all || options.kernel == "reduce_once")
        rows.push_back(
            {"reduce_once (" + code + ")", std::to_string(lesson09::grid_for(n)),
             [&workspace, in, n, out](cudaStream_t s) { lesson09::reduce_once(in, n, out + 2, workspace, s); },
             out + 2});
    if (all || options.kernel == "designs") {
        rows.push_back({"floor: one empty launch (no sum)", "1",
                        [](cudaStream_t s) { lesson09::Designs::run_empty(s); }, nullptr});
        int slot = 3;
        for (const auto design : lesson09::all_designs()) {
            long long* where = out + slot++;
            rows.push_back({lesson09::design_name(design), std::to_string(designs.grid(design, n)),
                            [&designs, design, in, n, where](cudaStream_t s) { designs.run(design, in, n, where, s); },
                            where});
        }
    }

    // Single calls: interleaved, L2 flushed before each, as every demo of the course times.
    std::vector<course::BenchmarkCase> cases;
    for (const auto& row : rows)
        cases.push_back({row.name, {}, row.run});
    const auto single = course::run_interleaved(cases, course::demo_timing(options));

    // Back to back: many calls queued on one stream, nothing between them.
    const int calls = back_to_back_calls(n);
    course::Stream stream;
    std::vector<course::TimingSummary> queued;
    for (const auto& row : rows)
        queued.push_back(time_back_to_back(row, calls, course::kOnSimulator ? 1 : options.reps, stream.get()));

    // Every sum checked once more, from a poisoned result.
    results.fill_bytes(course::kPoisonByte);
    COURSE_CUDA_CHECK(cudaDeviceSynchronize());
    for (const auto& row : rows)
        row.run(nullptr);
    COURSE_CUDA_CHECK(cudaDeviceSynchronize());
    const auto sums = results.download();

    double cub_single = 0;
    double cub_queued = 0;
    for (std::size_t i = 0; i < rows.size(); ++i)
        if (rows[i].name.starts_with("cub")) {
            cub_single = single[i].summary.median;
            cub_queued = queued[i].median;
        }

    course::RunReport report{"09_one_launch_reduction", device, n, 256, options.seed, expected, {}};
    const std::string time_unit = course::kOnSimulator ? "modelled us" : "us";
    course::Table table({"kernel", "grid", "1 call " + time_unit, "GB/s", "vs CUB", "queued " + time_unit + "/call",
                         "GB/s", "vs CUB", "correct"});
    bool all_correct = true;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const auto& one = single[i].summary;
        const auto& many = queued[i];
        const bool checked = rows[i].result != nullptr;
        const bool correct = !checked || sums[std::size_t(rows[i].result - results.data())] == expected;
        all_correct = all_correct && correct;
        const double one_gbs = course::gigabytes_per_second(bytes, one.median);
        const double many_gbs = course::gigabytes_per_second(bytes, many.median);
        const double one_vs = cub_single > 0 ? cub_single / one.median : 0;
        const double many_vs = cub_queued > 0 ? cub_queued / many.median : 0;
        report.rows.push_back(
            {rows[i].name, one.median, one.min, one.relative_spread(), one.runs, one_gbs, one_vs, correct});
        report.rows.push_back({rows[i].name + " (back to back)", many.median, many.min, many.relative_spread(),
                               many.runs, many_gbs, many_vs, correct});
        // The floor reads nothing: no bandwidth to show.
        table.add_row({rows[i].name, rows[i].grid, microseconds(one.median), checked ? course::fixed(one_gbs, 0) : "",
                       one_vs > 0 ? course::fixed(one_vs, 2) + "x" : "", microseconds(many.median),
                       checked ? course::fixed(many_gbs, 0) : "", many_vs > 0 ? course::fixed(many_vs, 2) + "x" : "",
                       checked ? (correct ? "yes" : "NO") : ""});
    }
    table.print(std::cout);
    std::cout << "\n1 call: median of up to " << options.reps << " single calls per row, interleaved, L2 flushed "
              << "before each; queued: " << calls << " calls back to back on one stream, time per call, median of "
              << (course::kOnSimulator ? 1 : options.reps) << " queues; GB/s counts the input read once; vs CUB: "
              << "CUB's time over the row's\n";
    return course::finish_demo(report, options, all_correct, "speedup = CUB's time over the row's",
                               "some rows gave a wrong sum: run ./course grade 09 for the failing case");
}

}  // namespace

int main(int argc, char** argv)
{
    return course::run_demo(spec(), sizeof(int) + 0.1, argc, argv, run);
}
