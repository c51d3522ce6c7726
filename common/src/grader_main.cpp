// The entry point of every lesson's grader: seed, device, watchdog, then doctest.
//
//   lessonNN_grader [--seed=N] [doctest options]
//
// Exit codes: 0 all checks passed, 1 a check failed, 77 no CUDA device (CTest reports the test as
// skipped, never as passed), 124 timeout. Listing options (--list-test-cases, used by CTest's
// test discovery at build time) never touch the GPU.

#define DOCTEST_CONFIG_IMPLEMENT
#include "course/data.hpp"
#include "course/device.hpp"
#include "course/grading.hpp"
#include "course/watchdog.hpp"

#include <doctest/doctest.h>

#include <charconv>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>

namespace {

constexpr int kSkipped = 77;

/// doctest's options that only print something (CTest's discovery runs --list-test-cases).
bool only_lists_or_helps(int argc, char** argv)
{
    constexpr std::string_view queries[] = {"-ltc", "--list-test-cases", "-lts", "--list-test-suites",
                                            "-lr",  "--list-reporters",  "-h",   "--help",
                                            "-?",   "-v",                "--version", "-c", "--count"};
    for (int i = 1; i < argc; ++i) {
        std::string arg = argv[i];
        arg = arg.substr(0, arg.find('='));
        if (const auto dt = arg.find("dt-"); dt != std::string::npos && dt <= 2)
            arg.erase(dt, 3);  // --dt-help is --help
        for (const auto query : queries)
            if (arg == query)
                return true;
    }
    return false;
}

std::optional<std::uint64_t> number(std::string_view text)
{
    std::uint64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc{} || end != text.data() + text.size())
        return std::nullopt;
    return value;
}

/// --seed=N on the command line, else COURSE_SEED, else a fresh one; empty if N is not a number.
std::optional<std::uint64_t> choose_seed(int argc, char** argv)
{
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg.starts_with("--seed="))
            return number(arg.substr(7));
    }
    if (const char* env = std::getenv("COURSE_SEED"); env != nullptr && *env != '\0')
        return number(env);
    return course::fresh_seed();
}

std::chrono::seconds watchdog_limit()
{
    const char* env = std::getenv("COURSE_GRADER_TIMEOUT");
    const auto seconds = env != nullptr ? number(env) : std::nullopt;
    return std::chrono::seconds(seconds.value_or(300));
}

}  // namespace

int main(int argc, char** argv)
{
    doctest::Context context;
    context.applyCommandLine(argc, argv);
    if (only_lists_or_helps(argc, argv))
        return context.run();

    const auto seed = choose_seed(argc, argv);
    if (!seed) {
        std::cerr << argv[0] << ": the seed must be a non-negative integer (--seed=N or COURSE_SEED=N)\n";
        return 2;
    }
    const auto probe = course::probe_device();
    if (!probe.device) {
        std::cout << "SKIPPED: " << probe.reason << "; this grader needs an NVIDIA GPU\n";
        return kSkipped;
    }
    course::grading::set_run_seed(*seed);
    course::grading::set_device(*probe.device);
    std::cout << "device " << probe.device->id << ": " << course::banner(*probe.device) << '\n'
              << "seed " << *seed << " (--seed=" << *seed << " or COURSE_SEED=" << *seed << " repeats this run)\n";
    course::start_watchdog(watchdog_limit());
    return context.run();
}
