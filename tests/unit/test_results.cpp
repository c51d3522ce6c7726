#include "course/results.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

using course::results::ThresholdOverrides;

TEST_CASE("lesson_number finds the two digits in any spelling of a lesson")
{
    using course::results::lesson_number;
    CHECK(lesson_number("03") == "03");
    CHECK(lesson_number("lesson03") == "03");
    CHECK(lesson_number("03_neighbored_reduction") == "03");
    CHECK(lesson_number("/home/a/course-2/lessons/05_two_phase/grader.cpp") == "05");
    CHECK(lesson_number("build/ci/lessons/lesson06_grader") == "06");
    CHECK(lesson_number("grader.cpp").empty());
}

TEST_CASE("threshold overrides: by lesson, back end and check")
{
    using course::results::Backend;
    const auto overrides = ThresholdOverrides::parse(
        R"({"_comment": "A100 class", "03": {"gpu": {"reduce_neighbored_less": 1.2}},
            "lesson04": {"_note": "x", "gpu": {"smem": 2}, "sim": {"smem/bank_conflicts": 0.5, "_c": 1}}})",
        "thresholds.json");
    CHECK(overrides.source() == "thresholds.json");
    CHECK(overrides.find("03_neighbored_reduction", Backend::gpu, "reduce_neighbored_less") == 1.2);
    CHECK_FALSE(overrides.find("03", Backend::sim, "reduce_neighbored_less").has_value());
    CHECK_FALSE(overrides.find("03", Backend::gpu, "other_kernel").has_value());
    CHECK(overrides.find("lesson04", Backend::gpu, "smem") == 2.0);
    CHECK(overrides.find("04", Backend::sim, "smem/bank_conflicts") == 0.5);
    CHECK_FALSE(overrides.find("04", Backend::sim, "smem").has_value());
    CHECK_FALSE(overrides.find("05", Backend::gpu, "reduce_neighbored_less").has_value());
    CHECK(overrides.entries().size() == 3);
    CHECK(ThresholdOverrides::parse("{}", "x").empty());
}

TEST_CASE("threshold overrides: a bad file is refused with a reason")
{
    const auto refused = [](const char* text, const char* reason) {
        CHECK_THROWS_WITH_AS((void)ThresholdOverrides::parse(text, "t.json"), doctest::Contains(reason),
                             std::runtime_error);
    };
    refused("{", "t.json: not valid JSON");
    refused("[1]", "expected an object");
    refused(R"({"xx": {"gpu": {"a": 1}}})", "does not name a lesson");
    refused(R"({"03": {"gpu": {"a": 0}}})", "must be a positive number");
    refused(R"({"03": {"gpu": {"a": "1.2"}}})", "must be a positive number");
    refused(R"({"03": {"gpu": {"a": -1}}})", "must be a positive number");
    // The back end is named: a check straight under the lesson is refused, with the right form.
    refused(R"({"03": {"reduce_neighbored_less": 1.2}})",
            R"('reduce_neighbored_less' is not a back end; name "gpu" or "sim" first)");
    refused(R"({"03": {"cuda": {"a": 1.2}}})", "'cuda' is not a back end");
    refused(R"({"03": 1.2})", "must map a back end");
    // '*' would give checks of other units and directions one value.
    refused(R"({"04": {"gpu": {"*": 1.3}}})", "'*' is not accepted");
    CHECK_THROWS_WITH_AS((void)ThresholdOverrides::load("/nonexistent/t.json"),
                         doctest::Contains("/nonexistent/t.json"), std::runtime_error);
}

TEST_CASE("threshold overrides: checked against the grader's check list")
{
    using course::results::Backend;
    using course::results::CheckSpec;
    const std::vector<CheckSpec> checks = {{"k", Backend::gpu, 1.4, false, "x", "speedup"},
                                           {"k", Backend::sim, 1.5, false, "x", "issue slots"},
                                           {"k/conflicts", Backend::sim, 0.1, true, "", "bank conflicts"}};
    const auto fits = ThresholdOverrides::parse(
        R"({"03": {"gpu": {"k": 1.2}, "sim": {"k/conflicts": 0.3}}, "05": {"gpu": {"other": 1}}})", "t.json");
    CHECK(fits.problems("03", checks).empty());  // lesson 05's entries are for lesson 05's grader
    const auto misspelt = ThresholdOverrides::parse(R"({"03": {"gpu": {"kk": 1.2}}})", "t.json");
    REQUIRE(misspelt.problems("03", checks).size() == 1);
    CHECK(misspelt.problems("03", checks)[0] == "t.json: lesson 03 has no gpu check 'kk'; its gpu checks: k");
    const auto wrong_backend = ThresholdOverrides::parse(R"({"lesson03": {"gpu": {"k/conflicts": 0.3}}})", "t.json");
    REQUIRE(wrong_backend.problems("03", checks).size() == 1);
    CHECK(wrong_backend.problems("03", checks)[0] ==
          "t.json: lesson 03 has no gpu check 'k/conflicts' (it is a sim check); its gpu checks: k");
    CHECK(ThresholdOverrides::parse(R"({"03": {"sim": {"x": 1}}})", "t.json").problems("03", {}).size() == 1);
}

TEST_CASE("the recorder keeps each case's verdict, messages and speed checks")
{
    course::results::Recorder recorder;
    recorder.set_program("/x/build/lessons/lesson03_grader");
    recorder.set_seed(42);
    CHECK(recorder.current_lesson() == "03");
    recorder.add_failure("dropped: no case is running");
    recorder.begin_case("sums", "lesson03", "/x/lessons/03_neighbored_reduction/grader.cpp");
    recorder.add_failure("wrong result: k, n = 1, block = 32");
    recorder.end_case(false, 0.5);
    recorder.begin_case("speed", "lesson03", "/x/lessons/03_neighbored_reduction/grader.cpp");
    recorder.add_speed({"k", "base", 1.8, 1.4, 1.4, "grader", true});
    course::results::SpeedResult conflicts{
        "k/bank_conflicts", "bank conflicts per request", 0.0, 0.1, 0.1, "grader", true, "technique"};
    conflicts.unit = "";
    conflicts.at_most = true;
    recorder.add_speed(conflicts);
    recorder.add_note("fast enough: k");
    // no end_case: a run stopped by its watchdog

    const auto json = nlohmann::json::parse(recorder.to_json());
    CHECK(json["program"] == "lesson03_grader");
    CHECK(json["lesson"] == "03");
    CHECK(json["seed"] == 42);
    CHECK(json["status"] == "running");
    CHECK(json["exit_code"].is_null());
    REQUIRE(json["cases"].size() == 2);
    CHECK(json["cases"][0]["verdict"] == "fail");
    CHECK(json["cases"][0]["failures"] == nlohmann::json::array({"wrong result: k, n = 1, block = 32"}));
    CHECK(json["cases"][1]["verdict"] == "unfinished");
    CHECK(json["cases"][1]["speed"][0]["ratio"] == 1.8);
    CHECK(json["cases"][1]["speed"][0]["unit"] == "x");
    CHECK(json["cases"][1]["speed"][0]["at_most"] == false);
    CHECK(json["cases"][1]["speed"][1]["unit"] == "");
    CHECK(json["cases"][1]["speed"][1]["at_most"] == true);
    CHECK(json["cases"][1]["notes"][0] == "fast enough: k");
}
