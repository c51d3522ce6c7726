#include "course/report.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

TEST_CASE("to_json carries the setup and every row")
{
    course::RunReport report;
    report.lesson = "03_neighbored_reduction";
    report.device.name = "Test GPU";
    report.device.cc_major = 9;
    report.n = 1u << 24;
    report.block = 512;
    report.seed = 42;
    report.expected_sum = 123;
    report.rows.push_back({"neighbored", 3.3, 3.2, 0.01, 21, 321.0, 1.0, true});
    report.rows.push_back({"neighbored-less", 1.8, 1.7, 0.02, 21, 600.0, 1.83, false});

    const auto json = nlohmann::json::parse(course::to_json(report));
    CHECK(json["lesson"] == "03_neighbored_reduction");
    CHECK(json["device"]["name"] == "Test GPU");
    CHECK(json["n"] == 16777216);
    CHECK(json["seed"] == 42);
    REQUIRE(json["results"].size() == 2);
    CHECK(json["results"][1]["kernel"] == "neighbored-less");
    CHECK(json["results"][1]["speedup"] == doctest::Approx(1.83));
    CHECK(json["results"][1]["correct"] == false);
}

TEST_CASE("write_json names the path it cannot write")
{
    course::RunReport report;
    CHECK_THROWS_WITH_AS(course::write_json(report, "/nonexistent-folder/r.json"),
                         doctest::Contains("/nonexistent-folder/r.json"), std::runtime_error);
    const auto path = std::filesystem::temp_directory_path() / "course_report_test.json";
    course::write_json(report, path.string());
    std::ifstream file(path);
    CHECK(nlohmann::json::parse(file)["rows"].is_null());
    std::filesystem::remove(path);
}
