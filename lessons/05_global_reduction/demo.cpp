// Lesson 05 demo: the two-phase reduction under many kernel configurations (threads per block x
// elements per thread), beside reduce_sum with your kernels and launch choices, cub::DeviceReduce::Sum
// and a device-to-device copy.
//
//   ./course run 05                      # reduce_sum with your module (exercises/), 2^28 ints
//   ./course run 05 --solution           # with the reference module (solutions/)
//   ./course run 05 --block 256 --n 2^26 --json sweep.json

#include "global_reduction.hpp"

#include "course/backend.hpp"
#include "course/benchmark.hpp"
#include "course/cli.hpp"
#include "course/cuda_check.hpp"
#include "course/data.hpp"
#include "course/demo.hpp"
#include "course/device.hpp"
#include "course/module.hpp"
#include "course/reduction.hpp"
#include "course/report.hpp"
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
constexpr unsigned kAllBlocks = 0;
const std::vector<unsigned> kItemsPerThread = {1, 2, 4, 8, 16, 32, 64, 256, 1024};

/// One row of the table: a way to compute the sum (or the copy) and how to describe it.
struct Row {
    std::string name;
    std::string block;
    std::string items;
    std::string grid;
    std::function<void(cudaStream_t)> run;
    long long* result = nullptr;  ///< null for the copy
};

course::DemoSpec spec()
{
    return {.program = COURSE_PROGRAM,
            .description = "two-phase global reduction: kernel configurations, your reduce_sum, CUB, copy (lesson 05)",
            .default_n = course::size_for_backend(std::size_t{1} << 28, std::size_t{1} << 20),
            .default_block = kAllBlocks,
            .allowed_blocks = {kAllBlocks, 128, 256, 512, 1024},
            .allowed_blocks_text = "128, 256, 512 or 1024 for the sweep's block size (0, the default: all four)",
            .kernels = {"sweep", "reduce_sum", "cub", "copy"}};
}

int run(const course::DemoOptions& options, const course::DeviceInfo& device)
{
    const std::size_t n = options.n;
    const double bytes = double(n) * sizeof(int);
    course::print_heading(std::cout, COURSE_PROGRAM, "two-phase global reduction (lesson 05)", device);
    std::cout << course::int_array_text(n, kInputMax, options.seed) << '\n';

    const auto input = course::random_ints(n, options.seed, 0, kInputMax);
    const long long expected = course::exact_sum(input);
    std::cout << "exact sum " << expected
              << (expected > 2147483647LL ? " (beyond 2^31 - 1: a 32-bit sum would have overflowed)" : "") << '\n';

    const course::DeviceBuffer<int> data{std::span<const int>(input)};
    course::DeviceBuffer<int> copy_target(n);
    const bool want_all = options.kernel == "all";
    std::vector<unsigned> blocks = {128, 256, 512, 1024};
    if (options.block != kAllBlocks)
        blocks = {options.block};

    // One result slot per row, so that every row's sum can be checked after the timings.
    std::vector<lesson05::SweepConfig> sweep;
    if (want_all || options.kernel == "sweep")
        for (const unsigned block : blocks)
            for (const unsigned items : kItemsPerThread)
                if (lesson05::sweep_grid(n, {block, items}) <= 0x7fffffffu)
                    sweep.push_back({block, items});
    std::size_t most_partials = 1;
    for (const auto& config : sweep)
        most_partials = std::max(most_partials, lesson05::sweep_grid(n, config));
    course::DeviceBuffer<long long> partials(most_partials);
    course::DeviceBuffer<long long> results(sweep.size() + 2);
    lesson05::Workspace workspace(n);  // loads the module and checks reduce_sum_launch
    lesson05::CubSum cub(n);
    const auto& plan = lesson05::reduce_sum_plan();
    const std::size_t grid = lesson05::partials_needed(n);
    const std::string code = course::student_code_label(lesson05::kLesson);
    std::cout << "reduce_sum with the kernels of " << code << ": phase 1 on min(ceil(n / "
              << plan.launch.phase_one_block << "), max_blocks_per_sm " << plan.launch.max_blocks_per_sm << " x "
              << plan.sm_count << " SMs) = " << grid << " blocks of " << plan.launch.phase_one_block
              << " threads (one SM holds " << plan.resident_blocks_per_sm << " of them at a time: a wave is "
              << plan.sm_count * std::size_t(plan.resident_blocks_per_sm) << "), phase 2 on one block of "
              << plan.launch.phase_two_block << "\n\n";

    std::vector<Row> rows;
    if (want_all || options.kernel == "copy")
        rows.push_back({"device-to-device copy (reads + writes)", "", "", "", [&](cudaStream_t s) {
                            COURSE_CUDA_CHECK(cudaMemcpyAsync(copy_target.data(), data.data(), n * sizeof(int),
                                                              cudaMemcpyDeviceToDevice, s));
                        }});
    if (want_all || options.kernel == "cub") {
        long long* out = results.data();
        rows.push_back({"cub::DeviceReduce::Sum", "", "", "",
                        [&cub, &data, n, out](cudaStream_t s) { cub.run(data.data(), n, out, s); }, out});
    }
    if (want_all || options.kernel == "reduce_sum") {
        long long* out = results.data() + 1;
        const double per_thread = double(n) / (double(grid) * plan.launch.phase_one_block);
        rows.push_back(
            {"reduce_sum (" + code + ")", std::to_string(plan.launch.phase_one_block),
             course::fixed(per_thread, per_thread < 10 ? 1 : 0), std::to_string(grid),
             [&workspace, &data, n, out](cudaStream_t s) { lesson05::reduce_sum(data.data(), n, out, workspace, s); },
             out});
    }
    for (std::size_t i = 0; i < sweep.size(); ++i) {
        const auto config = sweep[i];
        long long* out = results.data() + 2 + i;
        long long* scratch = partials.data();
        rows.push_back({"sweep", std::to_string(config.block), std::to_string(config.items_per_thread),
                        std::to_string(lesson05::sweep_grid(n, config)),
                        [&data, n, out, scratch, config](cudaStream_t s) {
                            lesson05::sweep_reduce_sum(data.data(), n, out, scratch, config, s);
                        },
                        out});
    }

    std::vector<course::BenchmarkCase> cases;
    for (const auto& row : rows)
        cases.push_back({row.name == "sweep" ? "sweep " + row.block + " x " + row.items : row.name, {}, row.run});
    const auto timings = course::run_interleaved(cases, course::demo_timing(options));

    // Every sum checked once more, after the timed runs, from a poisoned result.
    results.fill_bytes(course::kPoisonByte);
    for (const auto& row : rows)
        if (row.result != nullptr)
            row.run(nullptr);
    COURSE_CUDA_CHECK(cudaDeviceSynchronize());
    const auto sums = results.download();

    double copy_gbs = 0;
    double cub_gbs = 0;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        if (rows[i].result == nullptr)
            copy_gbs = course::gigabytes_per_second(2 * bytes, timings[i].summary.median);
        else if (rows[i].name.starts_with("cub"))
            cub_gbs = course::gigabytes_per_second(bytes, timings[i].summary.median);
    }

    course::RunReport report{"05_global_reduction", device, n, options.block, options.seed, expected, {}};
    course::Table table({"kernel", "block", "items/thread", "grid", course::kTimeColumn, "spread", "GB/s", "% of copy",
                         "% of CUB", "correct"});
    bool all_correct = true;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const auto& row = rows[i];
        const auto& summary = timings[i].summary;
        const bool is_copy = row.result == nullptr;
        const double gbs = course::gigabytes_per_second(is_copy ? 2 * bytes : bytes, summary.median);
        bool correct = true;
        if (!is_copy)
            correct = sums[std::size_t(row.result - results.data())] == expected;
        all_correct = all_correct && correct;
        const std::string label = row.name == "sweep" ? "sweep " + row.block + " x " + row.items : row.name;
        report.rows.push_back({label, summary.median, summary.min, summary.relative_spread(), summary.runs, gbs,
                               cub_gbs > 0 && !is_copy ? gbs / cub_gbs : 0, correct});
        table.add_row({row.name, row.block, row.items, row.grid, course::fixed(summary.median, 3),
                       course::fixed(100 * summary.relative_spread(), 1) + "%", course::fixed(gbs, 0),
                       copy_gbs > 0 ? course::fixed(100 * gbs / copy_gbs, 1) : "",
                       cub_gbs > 0 && !is_copy ? course::fixed(100 * gbs / cub_gbs, 1) : "",
                       is_copy ? "" : (correct ? "yes" : "NO")});
    }
    table.print(std::cout);
    std::cout << "\nmedian of up to " << options.reps << " runs per row, interleaved, L2 flushed before each; GB/s "
              << "counts the input read once (the copy: read and written); sweep = the lesson's two-phase reduction "
              << "with 4-byte loads, grid = n / (block x items/thread); reduce_sum's items/thread is n / (grid x "
              << "block), on average\n";
    return course::finish_demo(report, options, all_correct, "speedup = fraction of CUB's GB/s",
                               "some rows gave a wrong sum: run ./course grade 05 for the failing case");
}

}  // namespace

int main(int argc, char** argv)
{
    // Per element: the input and the copy's target (the partials are a small fraction more).
    return course::run_demo(spec(), 2 * sizeof(int) + 0.1, argc, argv, run);
}
