// The graders' results file, end to end without a GPU: doctest runs made-up grader cases (one
// passes, one reports a wrong result, one is too slow against an overridden threshold, one figure
// below its threshold, a possible and an impossible time) through the same listener and checks the
// graders use; then the recorded JSON is checked.
//
//   build/ci/tests/course_results_listener_test    (registered with CTest)

#include "course/grading.hpp"
#include "course/results.hpp"
#include "course/results_listener.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <string_view>
#include <unistd.h>
#include <vector>

REGISTER_LISTENER("course_results", 1, course::results::ResultsListener);

namespace {

course::grading::Comparison comparison(double baseline_ms, double candidate_ms)
{
    course::grading::Comparison c;
    c.baseline.median = baseline_ms;
    c.candidate.median = candidate_ms;
    c.baseline.runs = c.candidate.runs = 21;
    return c;
}

int g_failures = 0;

void expect(bool ok, const std::string& what)
{
    if (!ok) {
        std::cerr << "FAILED: " << what << '\n';
        ++g_failures;
    }
}

}  // namespace

TEST_SUITE("fake_grader")
{
    TEST_CASE("a correct kernel")
    {
        CHECK(1 + 1 == 2);
    }
    TEST_CASE("a wrong kernel")
    {
        FAIL_CHECK("wrong result: my_kernel, n = 33, block = 32 (input seed 7)");
    }
    TEST_CASE("a fast kernel")
    {
        course::grading::check_speedup(comparison(2.0, 1.0), 1.5, "fast_kernel", "baseline", "hint");
    }
    TEST_CASE("a kernel slower than the overridden threshold")
    {
        course::grading::check_speedup(comparison(2.0, 1.0), 1.5, "slow_kernel", "baseline", "make it faster");
    }
    TEST_CASE("a figure that is not a ratio of times")
    {
        course::grading::check_at_least(0.62, 0.7, "bandwidth", "of the copy bandwidth", "read more per thread");
    }
    TEST_CASE("a time the device can give")
    {
        CHECK(course::grading::check_physically_possible(0.99, "honest_kernel", "2^28 ints, 21 runs"));
    }
    TEST_CASE("a time faster than the device")
    {
        course::grading::check_physically_possible(3.0, "replaying_kernel", "2^28 ints, 21 runs");
    }
}

int main(int argc, char** argv)
{
    const auto dir = std::filesystem::temp_directory_path() / ("course_results_test_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const auto results = (dir / "results.json").string();
    const auto thresholds = (dir / "thresholds.json").string();
    // slow_kernel on this build's back end and on the other: only the first applies.
    const std::string here(course::results::backend_name(course::results::this_backend()));
    const std::string other = here == "gpu" ? "sim" : "gpu";
    std::ofstream(thresholds) << R"({"_comment": "made up", "lesson99": {")" << here << R"(": {"slow_kernel": 3.0}, ")"
                              << other << R"(": {"fast_kernel": 9.0}}})";

    // This file is not in a lesson folder: the program's name gives the lesson, as for a grader.
    auto& recorder = course::results::recorder();
    recorder.set_program("lesson99_grader");
    recorder.set_seed(1234);
    course::results::set_threshold_overrides(course::results::ThresholdOverrides::load(thresholds));
    recorder.set_thresholds_source(thresholds);
    course::results::set_results_path(results);

    doctest::Context context;
    context.applyCommandLine(argc, argv);
    context.setOption("test-suite", "fake_grader");
    const int code = context.run();
    recorder.set_status("finished");
    recorder.set_exit_code(code);
    course::results::write_results();
    if (context.shouldExit())
        return code;

    std::ifstream file(results);
    const auto json = nlohmann::json::parse(file);
    std::filesystem::remove_all(dir);
    expect(code == 1, "doctest's exit code is 1 (some cases fail)");
    expect(json["seed"] == 1234 && json["status"] == "finished" && json["exit_code"] == 1, "run fields");
    expect(json["thresholds_file"] == thresholds, "the thresholds file is recorded");
    const auto& overrides = json["threshold_overrides"];
    const auto entry = [&](const char* check) {
        for (const auto& o : overrides)
            if (o["check"] == check)
                return o;
        return nlohmann::json::object();
    };
    expect(overrides.size() == 2 && entry("slow_kernel")["backend"] == here &&
               entry("slow_kernel")["threshold"] == 3.0 && entry("slow_kernel")["applied"] == true &&
               entry("fast_kernel")["backend"] == other && entry("fast_kernel")["applied"] == false,
           "the record says which overrides applied: " + overrides.dump());
    const auto& cases = json["cases"];
    expect(cases.size() == 7, "seven cases recorded");
    if (cases.size() == 7) {
        expect(cases[0]["verdict"] == "pass" && cases[0]["failures"].empty(), "the correct kernel passes");
        expect(cases[1]["verdict"] == "fail" && cases[1]["failures"].size() == 1 &&
                   cases[1]["failures"][0].get<std::string>().starts_with("wrong result: my_kernel, n = 33"),
               "the wrong kernel's message is kept");
        const auto& fast = cases[2]["speed"][0];
        expect(cases[2]["verdict"] == "pass" && fast["ratio"] == 2.0 && fast["threshold"] == 1.5 &&
                   fast["threshold_source"] == "grader" && fast["passed"] == true,
               "the fast kernel: ratio 2.0 against the grader's 1.5");
        expect(cases[2]["notes"][0].get<std::string>().starts_with("fast enough: fast_kernel runs 2.00x"),
               "the fast kernel's note");
        const auto& slow = cases[3]["speed"][0];
        expect(cases[3]["verdict"] == "fail" && slow["threshold"] == 3.0 && slow["default_threshold"] == 1.5 &&
                   slow["threshold_source"] == thresholds && slow["passed"] == false && slow["backend"] == here,
               "the override applies to slow_kernel only");
        const auto message = cases[3]["failures"][0].get<std::string>();
        expect(message.starts_with("too slow: slow_kernel runs 2.00x") &&
                   message.find("threshold 3.00x (from " + thresholds) != std::string::npos,
               "the too-slow message names the overriding file: " + message);
        const auto& figure = cases[4]["speed"][0];
        expect(cases[4]["verdict"] == "fail" && figure["ratio"] == 0.62 && figure["threshold"] == 0.7 &&
                   figure["baseline"] == "of the copy bandwidth" && figure["passed"] == false &&
                   figure["kind"] == "figure" && fast["kind"] == "speedup",
               "check_at_least records its figure");
        expect(cases[4]["failures"][0].get<std::string>().starts_with(
                   "too slow: bandwidth: 0.62 of the copy bandwidth, threshold 0.70, on"),
               "check_at_least's message: " + cases[4]["failures"][0].get<std::string>());
        expect(cases[5]["verdict"] == "pass", "a read at 99% of the copy is possible");
        const auto impossible = cases[6]["failures"][0].get<std::string>();
        expect(cases[6]["verdict"] == "fail" &&
                   impossible.starts_with("impossible time: replaying_kernel would read at 300.0% of the "
                                          "device-to-device copy bandwidth") &&
                   impossible.find("(2^28 ints, 21 runs)") != std::string::npos,
               "an impossible time fails as such: " + impossible);
    }
    std::cout << (g_failures == 0 ? "results file: all checks passed\n" : "results file: checks failed\n");
    return g_failures == 0 ? 0 : 1;
}
