// The entry point of every lesson's grader: seed, device, watchdog, then doctest.
//
//   lessonNN_grader [--seed=N] [--modules=DIR[:DIR...]] [--results-fd=FD] [--results=FILE]
//                   [--thresholds=FILE] [doctest options]
//   lessonNN_grader --list-checks [--thresholds=FILE]
//
// --modules: the folders of the student's compiled kernels (course/module.hpp; default: the build
// tree's exercises). --results-fd=FD: a pipe the caller reads, the only channel ./course trusts:
// each test case's verdict and messages and each speed check's ratio and threshold, as one JSON
// line after every case (course/results.hpp). --results=FILE (or COURSE_RESULTS=FILE) writes the
// same record to a file, for people and tests. --thresholds=FILE (or COURSE_THRESHOLDS=FILE)
// overrides speed thresholds per lesson, back end and check; a name the grader does not have there
// stops it with exit code 2. --list-checks prints the grader's speed and technique checks (name,
// back end, threshold and direction, unit) and checks a thresholds file against them, without a
// device and without running any kernel.
//
// Exit codes: 0 all checks passed, 1 a check failed, 77 no CUDA device (CTest reports the test as
// skipped, never as passed), 124 timeout, 2 a bad option or thresholds file. Listing options (--list-test-cases, used by CTest's
// test discovery at build time) never touch the GPU.

#include "course/cuda_check.hpp"
#include "course/data.hpp"
#include "course/device.hpp"
#include "course/failures.hpp"
#include "course/gpu_sharing.hpp"
#include "course/grading.hpp"
#include "course/results.hpp"
#include "course/results_listener.hpp"
#include "course/table.hpp"
#include "course/watchdog.hpp"

#include "course/module.hpp"
#include "course/student_program.hpp"

#include <doctest/doctest.h>

#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include <fcntl.h>
#include <sys/prctl.h>

namespace {

constexpr int kSkipped = 77;

/// doctest's options that only print something (CTest's discovery runs --list-test-cases).
bool only_lists_or_helps(int argc, char** argv)
{
    constexpr std::string_view queries[] = {"-ltc",      "--list-test-cases",
                                            "-lts",      "--list-test-suites",
                                            "-lr",       "--list-reporters",
                                            "-h",        "--help",
                                            "-?",        "-v",
                                            "--version", "-c",
                                            "--count"};
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

/// The value of --name=VALUE on the command line, else of the environment variable, else empty.
std::string option_or_env(int argc, char** argv, std::string_view name, const char* env_name)
{
    const std::string prefix = "--" + std::string(name) + "=";
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg.starts_with(prefix))
            return std::string(arg.substr(prefix.size()));
    }
    const char* env = std::getenv(env_name);
    return env != nullptr ? std::string(env) : std::string();
}

REGISTER_LISTENER("course_results", 1, course::results::ResultsListener);

/// Holds the grader's share of the GPU for each test case it runs (course/gpu_sharing.hpp): other
/// graders work beside it, and a timing waits until no case of another grader is running.
class GpuWorkPerCase : public doctest::IReporter {
public:
    explicit GpuWorkPerCase(const doctest::ContextOptions&) {}
    void report_query(const doctest::QueryData&) override {}
    void test_run_start() override {}
    void test_run_end(const doctest::TestRunStats&) override {}
    void test_case_start(const doctest::TestCaseData&) override
    {
        try {
            work_.emplace();
        } catch (const std::exception& error) {  // no lock file: nothing may run on a shared GPU unchecked
            std::cerr << course::failure::grader_error.with(error.what()) << '\n' << std::flush;
            std::_Exit(1);
        }
    }
    void test_case_reenter(const doctest::TestCaseData&) override {}
    void test_case_end(const doctest::CurrentTestCaseStats&) override { work_.reset(); }
    void test_case_exception(const doctest::TestCaseException&) override {}
    void subcase_start(const doctest::SubcaseSignature&) override {}
    void subcase_end() override {}
    void log_assert(const doctest::AssertData&) override {}
    void log_message(const doctest::MessageData&) override {}
    void test_case_skipped(const doctest::TestCaseData&) override {}

private:
    std::optional<course::GpuWork> work_;
};
REGISTER_LISTENER("course_gpu_work", 2, GpuWorkPerCase);

// What a test case that ended in an exception reports. A CUDA error is the kernel's (a fault: the
// message names the case that ran), as is whatever lesson 06's student program did wrong or a module
// that is not what the lesson loads (course/module.hpp); anything
// else is a fault of the grader itself, never a verdict on the student's code.
REGISTER_EXCEPTION_TRANSLATOR(const std::exception& error)
{
    const bool students = dynamic_cast<const course::CudaError*>(&error) != nullptr ||
                          dynamic_cast<const course::StudentProgramError*>(&error) != nullptr ||
                          dynamic_cast<const course::StudentModuleError*>(&error) != nullptr;
    const std::string text = students ? std::string(error.what()) : course::failure::grader_error.with(error.what());
    return doctest::String(text.c_str());
}

/// Makes --results-fd's pipe the results channel: kept from every child process (a lesson whose
/// exercise is a host program runs the student's program as one), and the grader made
/// undumpable, so that no other process of the user can open it through /proc or trace the
/// grader. Empty, or why the value is unusable.
std::optional<std::string> open_results_channel(const std::string& text)
{
    if (text.empty())
        return std::nullopt;
    const auto fd = number(text);
    if (!fd || *fd < 3 || *fd > 1'000'000)
        return "--results-fd=" + text + ": give the number of an open pipe, 3 or more";
    const int descriptor = static_cast<int>(*fd);
    const int flags = fcntl(descriptor, F_GETFD);
    if (flags < 0 || fcntl(descriptor, F_SETFD, flags | FD_CLOEXEC) < 0)
        return "--results-fd=" + text + ": not an open file descriptor";
    prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
    course::results::set_results_channel(descriptor);
    return std::nullopt;
}

/// --modules=DIR[:DIR...]: every folder must exist. Empty, or why not.
std::optional<std::string> choose_modules(const std::string& folders)
{
    if (const auto missing = course::missing_module_folder(folders))
        return "--modules=" + folders + ": " + *missing + " is not a folder";
    if (!folders.empty())
        course::set_student_module_path(folders);
    return std::nullopt;
}

std::chrono::seconds watchdog_limit()
{
    const char* env = std::getenv("COURSE_GRADER_TIMEOUT");
    const auto seconds = env != nullptr ? number(env) : std::nullopt;
    return std::chrono::seconds(seconds.value_or(300));
}

bool lists_checks(int argc, char** argv)
{
    for (int i = 1; i < argc; ++i)
        if (std::string_view(argv[i]) == "--list-checks")
            return true;
    return false;
}

/// The thresholds file's problems for this grader's lesson, printed; false if there are any.
bool thresholds_fit(const course::results::ThresholdOverrides& overrides, const std::string& lesson,
                    const char* program)
{
    const auto problems = overrides.problems(lesson, course::results::registered_checks());
    for (const auto& problem : problems)
        std::cerr << program << ": " << problem << '\n';
    return problems.empty();
}

}  // namespace

int main(int argc, char** argv)
{
    const std::string lesson = course::results::lesson_number(std::filesystem::path(argv[0]).filename().string());
    if (lists_checks(argc, argv)) {
        // What a thresholds file may name: no device, no kernel, no student code involved.
        course::results::print_checks(std::cout, lesson);
        if (const auto file = option_or_env(argc, argv, "thresholds", "COURSE_THRESHOLDS"); !file.empty()) {
            try {
                if (!thresholds_fit(course::results::ThresholdOverrides::load(file), lesson, argv[0]))
                    return 2;
            } catch (const std::exception& error) {
                std::cerr << argv[0] << ": " << error.what() << '\n';
                return 2;
            }
        }
        return 0;
    }
    doctest::Context context;
    context.applyCommandLine(argc, argv);
    if (only_lists_or_helps(argc, argv))
        return context.run();

    const auto seed = choose_seed(argc, argv);
    if (!seed) {
        std::cerr << argv[0] << ": the seed must be a non-negative integer (--seed=N or COURSE_SEED=N)\n";
        return 2;
    }
    auto& recorder = course::results::recorder();
    recorder.set_program(argv[0]);
    recorder.set_seed(*seed);
    course::results::set_results_path(option_or_env(argc, argv, "results", "COURSE_RESULTS"));
    for (const auto& problem : {open_results_channel(option_or_env(argc, argv, "results-fd", "")),
                                choose_modules(option_or_env(argc, argv, "modules", ""))}) {
        if (problem) {
            std::cerr << argv[0] << ": " << *problem << '\n';
            return 2;
        }
    }
    if (const auto thresholds = option_or_env(argc, argv, "thresholds", "COURSE_THRESHOLDS"); !thresholds.empty()) {
        std::string problem;
        try {
            auto overrides = course::results::ThresholdOverrides::load(thresholds);
            const auto problems = overrides.problems(lesson, course::results::registered_checks());
            if (!problems.empty())
                problem = problems.front();
            for (const auto& line : problems)
                std::cerr << argv[0] << ": " << line << '\n';
            course::results::set_threshold_overrides(std::move(overrides));
            recorder.set_thresholds_source(thresholds);
        } catch (const std::exception& error) {
            std::cerr << argv[0] << ": " << error.what() << '\n';
            problem = error.what();
        }
        if (!problem.empty()) {
            recorder.set_status("error", problem);
            recorder.set_exit_code(2);
            course::results::write_results();
            return 2;
        }
    }

    const auto probe = course::probe_device();
    if (!probe.device) {
        std::cout << "SKIPPED: " << probe.reason << "; this grader needs an NVIDIA GPU\n";
        recorder.set_status("skipped", probe.reason);
        recorder.set_exit_code(kSkipped);
        course::results::write_results();
        return kSkipped;
    }
    course::grading::set_run_seed(*seed);
    course::grading::set_device(*probe.device);
    recorder.set_device(course::banner(*probe.device));
    std::cout << "device " << probe.device->id << ": " << course::banner(*probe.device) << '\n'
              << "seed " << *seed << " (--seed=" << *seed << " or COURSE_SEED=" << *seed << " repeats this run)\n";
    if (!course::results::threshold_overrides().empty()) {
        const auto& overrides = course::results::threshold_overrides();
        std::cout << "speed thresholds from " << overrides.source() << ':';
        bool any = false;
        for (const auto& entry : overrides.entries()) {
            if (entry.lesson != lesson)
                continue;
            const auto* check = course::results::find_check(entry.check, entry.backend);
            std::cout << (any ? "; " : " ") << entry.check << " (" << course::results::backend_name(entry.backend)
                      << ") " << course::fixed(entry.threshold, 2)
                      << (check != nullptr ? ", the course's " + course::fixed(check->threshold, 2) : std::string())
                      << (entry.backend == course::results::this_backend() ? "" : ", not on this back end");
            any = true;
        }
        std::cout << (any ? "\n" : " none for this lesson\n");
    }
    course::results::write_results();  // a file that says "running" replaces any older one at once
    course::start_watchdog(watchdog_limit(), [&recorder](const std::string& message) {
        // The main thread is stuck in the kernel: what it was doing is not touched again.
        recorder.set_status("timeout", message);
        recorder.set_exit_code(124);
        course::results::write_results();
    });
    const int code = context.run();
    recorder.set_status("finished");
    recorder.set_exit_code(code);
    course::results::write_results();
    return code;
}
