// Lesson 01 demo: where the threads of a 3-D block land in warps and lanes, then counting with one
// atomic per thread against one atomic per warp, timed side by side.
//
//   ./course run 01                      # your kernels (exercises/)
//   ./course run 01 --solution           # the reference (solutions/)
//   ./course run 01 --n 2^26 --block 128 --kernel per-warp-ballot --json results.json

#include "warp_basics.hpp"

#include "course/benchmark.hpp"
#include "course/cuda_check.hpp"
#include "course/data.hpp"
#include "course/demo.hpp"
#include "course/device_buffer.hpp"
#include "course/module.hpp"
#include "course/reduction.hpp"
#include "course/table.hpp"

#include <algorithm>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <iostream>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace {

using lesson01::ThreadLayout;

/// 72 threads: two full warps and a third with 8 of its 32 lanes holding a thread.
const dim3 kShownBlock(12, 3, 2);
constexpr int kRange = 1000;  // values -1000..1000; threshold 0 selects about half

/// Prints which warp and lane each threadIdx of kShownBlock gets; returns whether all are right.
bool show_layout()
{
    const dim3 grid(1, 1, 1);
    const auto expected = lesson01::expected_layout(grid, kShownBlock);
    course::DeviceBuffer<ThreadLayout> out(expected.size());
    out.fill_bytes(0xff);
    lesson01::launch_record_layout(grid, kShownBlock, out.data(), nullptr);
    COURSE_CHECK_LAUNCH();
    COURSE_CUDA_CHECK(cudaDeviceSynchronize());
    const auto got = out.download();

    std::cout << "1. One block of (" << kShownBlock.x << ", " << kShownBlock.y << ", " << kShownBlock.z
              << ") = " << expected.size()
              << " threads, as record_layout saw it. Cell: linear id in the block : warp . lane\n\n";
    std::vector<std::string> header = {"threadIdx.z, .y"};
    for (unsigned x = 0; x < kShownBlock.x; ++x)
        header.push_back("x=" + std::to_string(x));
    course::Table table(header);
    bool right = true;
    for (unsigned z = 0; z < kShownBlock.z; ++z)
        for (unsigned y = 0; y < kShownBlock.y; ++y) {
            std::vector<std::string> row = {"z=" + std::to_string(z) + ", y=" + std::to_string(y)};
            for (unsigned x = 0; x < kShownBlock.x; ++x) {
                const std::size_t g = x + y * kShownBlock.x + z * kShownBlock.x * kShownBlock.y;
                const ThreadLayout& t = got[g];
                const bool written = t.global != UINT32_MAX;
                right = right && t == expected[g];
                row.push_back(written ? std::to_string(t.thread) + ":" + std::to_string(t.warp) + "." +
                                            std::to_string(t.lane)
                                      : "-");
            }
            table.add_row(row);
        }
    table.print(std::cout);
    const unsigned threads = kShownBlock.x * kShownBlock.y * kShownBlock.z;
    const unsigned warps = (threads + 31) / 32;
    std::cout << "\nx varies fastest, then y, then z; warps are cut from the linear id: " << warps << " warps for "
              << threads << " threads, the last with " << threads - 32 * (warps - 1) << " active lanes and "
              << 32 * warps - threads << " inactive ones that still occupy its slot.\n";
    if (!right)
        std::cout << "record_layout did NOT match the hardware's layout ('-': never written); "
                     "./course grade 01 names the first wrong thread.\n";
    return right;
}

course::DemoSpec spec()
{
    return {.program = COURSE_PROGRAM,
            .description = "warp layout of a 3-D block; counting with one atomic per thread or per warp (lesson 01)",
            .default_block = 256,
            .kernels = course::names_of(lesson01::count_kernels())};
}

int run(const course::DemoOptions& options, const course::DeviceInfo& device)
{
    course::print_heading(std::cout, COURSE_PROGRAM, "warp basics (lesson 01)", device);
    std::cout << '\n';
    const bool layout_right = show_layout();

    const int threshold = 0;
    const auto values = course::random_ints(options.n, options.seed, -kRange, kRange);
    const auto expected = lesson01::count_below(values, threshold);
    std::cout << "\n2. Counting values below " << threshold << " among " << options.n << " ints (values " << -kRange
              << ".." << kRange << ", seed " << options.seed << "; --seed " << options.seed
              << " repeats it): " << expected << " of them. Block " << options.block << ", "
              << course::blocks_for(options.n, options.block) << " blocks; one atomic per thread means " << options.n
              << " atomics on one address, one per warp means " << (options.n + 31) / 32 << ".\n\n";

    course::DeviceBuffer<int> data{std::span<const int>(values)};
    course::DeviceBuffer<unsigned long long> count(1);
    std::vector<const lesson01::CountKernel*> chosen;
    for (const auto& kernel : lesson01::count_kernels())
        if (options.kernel == "all" || options.kernel == kernel.name)
            chosen.push_back(&kernel);
    std::vector<course::BenchmarkCase> cases;
    for (const auto* kernel : chosen)
        cases.push_back({kernel->name, {}, [&, kernel](cudaStream_t s) {
                             kernel->launch(data.data(), options.n, threshold, count.data(), options.block, s);
                         }});
    const auto timings = course::run_interleaved(cases, course::demo_timing(options));

    std::vector<course::TimedRow> rows;
    bool all_correct = layout_right;
    const bool baseline_chosen = chosen.front() == &lesson01::count_kernels().front();
    for (std::size_t i = 0; i < chosen.size(); ++i) {
        // Once more, untimed, from a poisoned counter: the result must hold after the timed runs.
        count.fill_bytes(0x7f);
        chosen[i]->launch(data.data(), options.n, threshold, count.data(), options.block, nullptr);
        COURSE_CHECK_LAUNCH();
        const bool correct = count.download()[0] == expected;
        all_correct = all_correct && correct;
        const std::string label = chosen[i]->written_by_student
                                      ? chosen[i]->name + " (" + course::student_code_label(lesson01::kLesson) + ")"
                                      : chosen[i]->name;
        rows.push_back({label, chosen[i]->name, timings[i].summary, double(options.n) * sizeof(int),
                        baseline_chosen ? std::optional<std::size_t>(0) : std::nullopt, correct});
    }
    course::RunReport report{
        "01_warp_basics", device, options.n, options.block, options.seed, static_cast<std::int64_t>(expected), {}};
    course::print_timing_table(rows, std::cout, &report.rows);
    std::cout << "\nmedian of up to " << options.reps << " runs per kernel, interleaved, L2 flushed before each; "
              << "GB/s counts the input read once; speedup over per-thread-atomic\n";
    return course::finish_demo(report, options, all_correct);
}

}  // namespace

int main(int argc, char** argv)
{
    return course::run_demo(spec(), sizeof(int), argc, argv, run);
}
