#include "course/results.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <optional>
#include <stdexcept>
#include <string>
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

TEST_CASE("threshold overrides: by lesson and check, '*' for every check of a lesson")
{
    const auto overrides = ThresholdOverrides::parse(
        R"({"_comment": "A100 class", "03": {"reduce_neighbored_less": 1.2}, "lesson04": {"*": 1.1, "smem": 2}})",
        "thresholds.json");
    CHECK(overrides.source() == "thresholds.json");
    CHECK(overrides.find("03_neighbored_reduction", "reduce_neighbored_less") == 1.2);
    CHECK_FALSE(overrides.find("03", "other_kernel").has_value());
    CHECK(overrides.find("04", "anything") == 1.1);
    CHECK(overrides.find("lesson04", "smem") == 2.0);
    CHECK_FALSE(overrides.find("05", "reduce_neighbored_less").has_value());
    CHECK(ThresholdOverrides::parse("{}", "x").empty());
}

TEST_CASE("threshold overrides: a bad file is refused with a reason")
{
    CHECK_THROWS_WITH_AS((void)ThresholdOverrides::parse("{", "t.json"), doctest::Contains("t.json: not valid JSON"),
                         std::runtime_error);
    CHECK_THROWS_WITH_AS((void)ThresholdOverrides::parse("[1]", "t.json"), doctest::Contains("expected an object"),
                         std::runtime_error);
    CHECK_THROWS_WITH_AS((void)ThresholdOverrides::parse(R"({"xx": {"a": 1}})", "t.json"),
                         doctest::Contains("does not name a lesson"), std::runtime_error);
    CHECK_THROWS_WITH_AS((void)ThresholdOverrides::parse(R"({"03": {"a": 0}})", "t.json"),
                         doctest::Contains("must be a positive number"), std::runtime_error);
    CHECK_THROWS_WITH_AS((void)ThresholdOverrides::load("/nonexistent/t.json"), doctest::Contains("/nonexistent/t.json"),
                         std::runtime_error);
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
    CHECK(json["cases"][1]["notes"][0] == "fast enough: k");
}
