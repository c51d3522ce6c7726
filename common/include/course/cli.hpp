#pragma once
/// @file cli.hpp
/// @brief The demos' command line: --n, --block, --reps, --seed, --kernel, --json, --modules.
///
/// Every bad value is answered with one line that names the option, the value and what is
/// allowed, and exit code 2 (kBadUsage); --help prints the options and exits 0.

#include "course/backend.hpp"
#include "course/device.hpp"

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace course {

/// Exit code for a bad command line.
inline constexpr int kBadUsage = 2;

/// What a lesson's demo accepts. The defaults finish in seconds on either back end: the CPU
/// simulator interprets every warp instruction, so it gets smaller arrays and one timed run (its
/// modelled times are the same every run).
struct DemoSpec {
    std::string program;      ///< e.g. "lesson03_demo"
    std::string description;  ///< one line for --help
    std::uint64_t default_n = size_for_backend(std::size_t{1} << 24, std::size_t{1} << 20);
    unsigned default_block = 512;
    /// The block sizes --block accepts, and how --help and a refusal name them: by default the
    /// powers of two from a warp to the most threads a block holds.
    std::vector<unsigned> allowed_blocks = {32, 64, 128, 256, 512, 1024};
    std::string allowed_blocks_text = "a power of two from 32 to 1024";
    std::vector<std::string> kernels;  ///< names --kernel accepts (plus "all")
    int default_reps = static_cast<int>(size_for_backend(21, 1));
};

/// The names of the entries of one or more kernel tables (anything with a `name` member), in order:
/// a demo's DemoSpec::kernels from the tables it runs.
template <class... Tables>
[[nodiscard]] std::vector<std::string> names_of(const Tables&... tables)
{
    std::vector<std::string> names;
    (..., [&] {
        for (const auto& entry : tables)
            names.push_back(entry.name);
    }());
    return names;
}

/// A valid command line.
struct DemoOptions {
    std::uint64_t n = 0;
    unsigned block = 0;
    int reps = 0;
    std::uint64_t seed = 0;
    std::string kernel = "all";
    std::string json_path;  ///< empty: no JSON report
    std::string modules;    ///< --modules: folders of the student's modules (empty: the default)
};

/// Either options to run with, or the exit code to stop with (0 after --help, kBadUsage).
struct ParsedDemoOptions {
    std::optional<DemoOptions> options;
    int exit_code = 0;
};

/// Parses argv; messages go to `out` (help) and `err` (one line per problem). A valid --modules
/// becomes the student module path (course/module.hpp). std::cout is made unbuffered: a demo's
/// lines reach a pipe as they are printed.
[[nodiscard]] ParsedDemoOptions parse_demo_options(const DemoSpec& spec, int argc, const char* const* argv,
                                                   std::ostream& out, std::ostream& err);

/// A count written as digits ("16777216") or as a power of two ("2^24"); empty if it is neither
/// or does not fit in 64 bits.
[[nodiscard]] std::optional<std::uint64_t> parse_count(std::string_view text);

/// Why `n` elements of `bytes_per_element` bytes do not fit in the device's free memory, or
/// nothing if they fit. `bytes_per_element` counts every buffer the demo allocates per element.
[[nodiscard]] std::optional<std::string> check_fits_device(std::uint64_t n, double bytes_per_element,
                                                           const DeviceInfo& device);

}  // namespace course
