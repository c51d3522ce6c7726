#include "course/demo.hpp"

#include "course/backend.hpp"
#include "course/table.hpp"
#include "course/watchdog.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <string_view>

namespace course {

namespace {

// COURSE_DEMO_TIMEOUT in seconds, else the back end's default: a simulated kernel is a thousand
// times slower than on a GPU, and the simulator stops a runaway launch itself.
std::chrono::seconds demo_idle_limit(const char* program)
{
    const std::chrono::seconds fallback(kOnSimulator ? 300 : 60);
    const char* text = std::getenv("COURSE_DEMO_TIMEOUT");
    if (text == nullptr)
        return fallback;
    const auto seconds = parse_count(text);
    if (!seconds || *seconds == 0 || *seconds > 86400) {
        std::cerr << program << ": COURSE_DEMO_TIMEOUT=" << text
                  << " is not a number of seconds from 1 to 86400; using " << fallback.count() << '\n';
        return fallback;
    }
    return std::chrono::seconds(*seconds);
}

}  // namespace

int run_demo(const DemoSpec& spec, double bytes_per_element, int argc, const char* const* argv, const DemoBody& body,
             std::uint64_t extra_elements)
{
    const auto parsed = parse_demo_options(spec, argc, argv, std::cout, std::cerr);
    if (!parsed.options)
        return parsed.exit_code;
    const auto probe = probe_device();
    if (!probe.device) {
        std::cerr << spec.program << ": " << probe.reason << '\n';
        return 1;
    }
    if (const auto problem = check_fits_device(parsed.options->n + extra_elements, bytes_per_element, *probe.device)) {
        std::cerr << spec.program << ": " << *problem << '\n';
        return kBadUsage;
    }
    start_idle_watchdog(demo_idle_limit(spec.program.c_str()), "COURSE_DEMO_TIMEOUT=SECONDS sets the limit");
    try {
        return body(*parsed.options, *probe.device);
    } catch (const std::exception& error) {
        std::cerr << spec.program << ": " << error.what() << '\n';
        return 1;
    }
}

void print_timing_table(std::span<const TimedRow> rows, std::ostream& out, std::vector<ResultRow>* report)
{
    Table table({"kernel", kTimeColumn, "min ms", "spread", "GB/s", "speedup", "correct"});
    for (const auto& row : rows) {
        const auto& t = row.timing;
        const double gbps = row.bytes > 0 ? gigabytes_per_second(row.bytes, t.median) : 0;
        const double speedup = row.baseline ? rows[*row.baseline].timing.median / t.median : 0;
        table.add_row({row.label, fixed(t.median, 3), fixed(t.min, 3), fixed(100 * t.relative_spread(), 1) + "%",
                       row.bytes > 0 ? fixed(gbps, 1) : "", row.baseline ? fixed(speedup, 2) + "x" : "",
                       row.correct ? "yes" : "NO"});
        if (report != nullptr)
            report->push_back({row.name, t.median, t.min, t.relative_spread(), t.runs, gbps, speedup, row.correct});
    }
    table.print(out);
}

void print_heading(std::ostream& out, std::string_view program, std::string_view title, const DeviceInfo& device)
{
    out << program << ": " << title << '\n' << "device " << device.id << ": " << banner(device) << '\n';
}

std::string seed_text(std::uint64_t seed)
{
    return "seed " + std::to_string(seed) + " (--seed " + std::to_string(seed) + " repeats it)";
}

std::string int_array_text(std::uint64_t n, int max, std::uint64_t seed, int mb_digits)
{
    return "array: " + std::to_string(n) + " ints (" + fixed(double(n) * sizeof(int) / 1e6, mb_digits) +
           " MB), values 0.." + std::to_string(max) + ", " + seed_text(seed);
}

int finish_demo(const RunReport& report, const DemoOptions& options, bool all_correct, std::string_view about,
                std::string_view when_wrong)
{
    if (!options.json_path.empty()) {
        write_json(report, options.json_path);
        std::cout << "results written to " << options.json_path;
        if (!about.empty())
            std::cout << " (" << about << ")";
        std::cout << '\n';
    }
    if (!all_correct && !when_wrong.empty())
        std::cout << when_wrong << '\n';
    return all_correct ? 0 : 1;
}

BenchmarkOptions demo_timing(const DemoOptions& options)
{
    BenchmarkOptions timing;
    timing.max_runs = options.reps;
    timing.min_runs = std::min(options.reps, timing.min_runs);
    timing.progress = kOnSimulator ? &std::cout : nullptr;
    return timing;
}

}  // namespace course
