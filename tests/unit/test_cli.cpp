#include "course/backend.hpp"
#include "course/cli.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace {

course::DemoSpec spec()
{
    course::DemoSpec spec;
    spec.program = "demo";
    spec.allowed_blocks = {32, 64, 128, 256, 512, 1024};
    spec.allowed_blocks_text = "a power of two from 32 to 1024";
    spec.kernels = {"neighbored", "neighbored-less"};
    return spec;
}

struct Outcome {
    course::ParsedDemoOptions parsed;
    std::string out;
    std::string err;
};

Outcome parse(std::vector<const char*> args)
{
    args.insert(args.begin(), "demo");
    std::ostringstream out;
    std::ostringstream err;
    auto parsed = course::parse_demo_options(spec(), int(args.size()), args.data(), out, err);
    return {parsed, out.str(), err.str()};
}

/// A bad value: no options, exit 2, exactly one line naming `option`.
void check_rejected(std::vector<const char*> args, const std::string& mention)
{
    const auto outcome = parse(args);
    CAPTURE(outcome.err);
    CHECK_FALSE(outcome.parsed.options);
    CHECK(outcome.parsed.exit_code == course::kBadUsage);
    CHECK(outcome.err.find(mention) != std::string::npos);
    CHECK(std::count(outcome.err.begin(), outcome.err.end(), '\n') == 1);
}

}  // namespace

TEST_CASE("parse_count reads digits and powers of two")
{
    CHECK(course::parse_count("16777216") == 16777216u);
    CHECK(course::parse_count("2^24") == 16777216u);
    CHECK(course::parse_count("2^0") == 1u);
    CHECK_FALSE(course::parse_count("abc"));
    CHECK_FALSE(course::parse_count(""));
    CHECK_FALSE(course::parse_count("3^4"));
    CHECK_FALSE(course::parse_count("2^64"));
    CHECK_FALSE(course::parse_count("-5"));
    CHECK_FALSE(course::parse_count("12x"));
    CHECK_FALSE(course::parse_count("99999999999999999999999"));
}

TEST_CASE("defaults and valid options")
{
    const auto defaults = parse({});
    REQUIRE(defaults.parsed.options);
    // On the simulator, sizes and runs that finish in seconds there (the CPU interprets every warp).
    CHECK(defaults.parsed.options->n == course::size_for_backend(std::size_t{1} << 24, std::size_t{1} << 20));
    CHECK(defaults.parsed.options->reps == (course::kOnSimulator ? 1 : 21));
    CHECK(defaults.parsed.options->block == 512);
    CHECK(defaults.parsed.options->kernel == "all");

    const auto given = parse({"--n", "2^20", "--block", "256", "--reps", "5", "--seed", "9", "--kernel", "neighbored"});
    REQUIRE(given.parsed.options);
    CHECK(given.parsed.options->n == (1u << 20));
    CHECK(given.parsed.options->block == 256);
    CHECK(given.parsed.options->reps == 5);
    CHECK(given.parsed.options->seed == 9);
    CHECK(given.parsed.options->kernel == "neighbored");
}

TEST_CASE("each bad value gets one line and exit code 2")
{
    check_rejected({"--n", "0"}, "--n 0");
    check_rejected({"--n", "abc"}, "--n abc: not a count");
    check_rejected({"--n", "-3"}, "--n -3");
    check_rejected({"--block", "48"}, "--block 48: this lesson's kernels need a power of two from 32 to 1024");
    check_rejected({"--block", "4096"}, "--block 4096");
    check_rejected({"--block", "0"}, "--block 0");
    check_rejected({"--reps", "0"}, "--reps 0");
    check_rejected({"--seed", "x"}, "--seed x");
    check_rejected({"--kernel", "fastest"}, "--kernel fastest: no such kernel; choose one of: all, neighbored");
    check_rejected({"--json", "/no/such/folder/out.json"}, "/no/such/folder");
    check_rejected({"--frobnicate"}, "frobnicate");
    check_rejected({"--n"}, "--n");
}

TEST_CASE("--help prints the options and exits 0")
{
    const auto outcome = parse({"--help"});
    CHECK_FALSE(outcome.parsed.options);
    CHECK(outcome.parsed.exit_code == 0);
    CHECK(outcome.out.find("--block") != std::string::npos);
}

TEST_CASE("check_fits_device compares with the free memory")
{
    course::DeviceInfo device;
    device.name = "Test GPU";
    device.free_bytes = std::size_t{80} << 30;
    CHECK_FALSE(course::check_fits_device(std::uint64_t{1} << 28, 8.125, device));
    const auto problem = course::check_fits_device(99'999'999'999ull, 8.125, device);
    REQUIRE(problem);
    if (course::kOnSimulator) {
        // Device memory is host memory there, beside the host's copies: twice the bytes, and the
        // free bytes are what this machine can give.
        CHECK(problem->find("--n 99999999999: needs 1625.0 GB of this machine's memory on the CPU simulator") == 0);
        CHECK(problem->find("it can give 85.9 GB; the largest n that fits is about 4757502235") != std::string::npos);
    } else {
        CHECK(problem->find("--n 99999999999: needs 812.5 GB of device memory, but Test GPU has 85.9 GB free") == 0);
        CHECK(problem->find("the largest n that fits is about 9515004471") != std::string::npos);
    }
}
