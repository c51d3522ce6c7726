#include "course/cli.hpp"

#include "course/backend.hpp"
#include "course/data.hpp"
#include "course/module.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <iostream>
#include <ostream>
#include <sstream>
#include <system_error>

namespace course {
namespace {

std::optional<std::uint64_t> parse_digits(std::string_view text)
{
    std::uint64_t value = 0;
    const auto* end = text.data() + text.size();
    const auto [stop, error] = std::from_chars(text.data(), end, value);
    if (text.empty() || error != std::errc{} || stop != end)
        return std::nullopt;
    return value;
}

std::string join(const std::vector<std::string>& words)
{
    std::string text;
    for (const auto& word : words)
        text += (text.empty() ? "" : ", ") + word;
    return text;
}

/// The first problem with the values, as one line, or nothing.
std::optional<std::string> validate(const DemoSpec& spec, const std::string& n_text, const std::string& block_text,
                                    const std::string& reps_text, const std::string& seed_text, DemoOptions& options)
{
    const auto n = parse_count(n_text);
    if (!n)
        return "--n " + n_text + ": not a count (write digits, e.g. 16777216, or a power of two, e.g. 2^24)";
    if (*n == 0)
        return "--n 0: the array must hold at least one element";
    options.n = *n;

    const auto block = parse_digits(block_text);
    if (!block ||
        std::find(spec.allowed_blocks.begin(), spec.allowed_blocks.end(), *block) == spec.allowed_blocks.end())
        return "--block " + block_text + ": this lesson's kernels need " + spec.allowed_blocks_text;
    options.block = static_cast<unsigned>(*block);

    const auto reps = parse_digits(reps_text);
    if (!reps || *reps < 1 || *reps > 1000)
        return "--reps " + reps_text + ": give a number of timed runs from 1 to 1000";
    options.reps = static_cast<int>(*reps);

    if (seed_text.empty()) {
        options.seed = fresh_seed();
    } else {
        const auto seed = parse_digits(seed_text);
        if (!seed)
            return "--seed " + seed_text + ": not a non-negative integer";
        options.seed = *seed;
    }

    if (options.kernel != "all" &&
        std::find(spec.kernels.begin(), spec.kernels.end(), options.kernel) == spec.kernels.end())
        return "--kernel " + options.kernel + ": no such kernel; choose one of: all, " + join(spec.kernels);

    if (const auto missing = missing_module_folder(options.modules))
        return "--modules " + options.modules + ": " + *missing + " is not a folder";

    if (!options.json_path.empty()) {
        const auto folder = std::filesystem::absolute(options.json_path).parent_path();
        if (!std::filesystem::is_directory(folder))
            return "--json " + options.json_path + ": the folder " + folder.string() + " does not exist";
    }
    return std::nullopt;
}

}  // namespace

std::optional<std::uint64_t> parse_count(std::string_view text)
{
    if (const auto caret = text.find('^'); caret != std::string_view::npos) {
        const auto base = parse_digits(text.substr(0, caret));
        const auto exponent = parse_digits(text.substr(caret + 1));
        if (!base || *base != 2 || !exponent || *exponent > 63)
            return std::nullopt;
        return std::uint64_t{1} << *exponent;
    }
    return parse_digits(text);
}

std::optional<std::string> check_fits_device(std::uint64_t n, double bytes_per_element, const DeviceInfo& device)
{
    // On the simulator device memory is host memory (its free bytes are what this machine can still
    // give), and the program's host copies of the same arrays need as much again.
    const double per_element = kOnSimulator ? 2 * bytes_per_element : bytes_per_element;
    const double needed = double(n) * per_element;
    // Leave room for the L2-flush buffer and the runtime's own allocations.
    const double usable = double(device.free_bytes) * 0.9;
    if (needed <= usable)
        return std::nullopt;
    std::ostringstream text;
    text.setf(std::ios::fixed);
    text.precision(1);
    text << "--n " << n << ": needs " << needed / 1e9 << " GB";
    if (kOnSimulator)
        text << " of this machine's memory on the CPU simulator (device memory is host memory there, beside the "
                "host's copies), but it can give "
             << double(device.free_bytes) / 1e9 << " GB";
    else
        text << " of device memory, but " << device.name << " has " << double(device.free_bytes) / 1e9 << " GB free";
    text << "; the largest n that fits is about " << std::uint64_t(usable / per_element);
    return text.str();
}

ParsedDemoOptions parse_demo_options(const DemoSpec& spec, int argc, const char* const* argv, std::ostream& out,
                                     std::ostream& err)
{
    std::cout << std::unitbuf;  // a pipe sees each line when it is printed, not at exit
    CLI::App app{spec.description, spec.program};
    std::string n_text = std::to_string(spec.default_n);
    std::string block_text = std::to_string(spec.default_block);
    std::string reps_text = std::to_string(spec.default_reps);
    std::string seed_text;
    DemoOptions options;
    app.add_option("--n", n_text, "number of elements, digits or a power of two such as 2^24")->capture_default_str();
    app.add_option("--block", block_text, "threads per block: " + spec.allowed_blocks_text)->capture_default_str();
    app.add_option("--reps", reps_text, "most timed runs per kernel (fewer once timings are stable)")
        ->capture_default_str();
    app.add_option("--seed", seed_text, "seed of the random input (default: a fresh one, printed)");
    app.add_option("--kernel", options.kernel, "kernel to run: all, " + join(spec.kernels))->capture_default_str();
    app.add_option("--json", options.json_path, "also write the results to this JSON file");
    app.add_option("--modules", options.modules,
                   "folders of the student's compiled kernels, DIR[:DIR...] (default: the build's exercises)");

    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp&) {
        out << app.help();
        return {std::nullopt, 0};
    } catch (const CLI::ParseError& error) {
        err << spec.program << ": " << error.what() << " (see --help)\n";
        return {std::nullopt, kBadUsage};
    }
    if (const auto problem = validate(spec, n_text, block_text, reps_text, seed_text, options)) {
        err << spec.program << ": " << *problem << '\n';
        return {std::nullopt, kBadUsage};
    }
    if (!options.modules.empty())
        set_student_module_path(options.modules);
    return {options, 0};
}

}  // namespace course
