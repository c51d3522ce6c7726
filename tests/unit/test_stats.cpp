#include "course/benchmark.hpp"
#include "course/stats.hpp"

#include <doctest/doctest.h>

#include <stdexcept>
#include <vector>

TEST_CASE("summarize: median, extremes and quartiles of unsorted samples")
{
    const std::vector<float> samples = {5, 1, 4, 2, 3};
    const auto summary = course::summarize(samples);
    CHECK(summary.median == doctest::Approx(3));
    CHECK(summary.min == doctest::Approx(1));
    CHECK(summary.max == doctest::Approx(5));
    CHECK(summary.p25 == doctest::Approx(2));
    CHECK(summary.p75 == doctest::Approx(4));
    CHECK(summary.runs == 5);
    CHECK(summary.relative_spread() == doctest::Approx(2.0 / 3.0));
}

TEST_CASE("summarize: an even count interpolates the median; one sample has no spread")
{
    const std::vector<float> even = {1, 2, 3, 10};
    CHECK(course::summarize(even).median == doctest::Approx(2.5));
    const std::vector<float> one = {7};
    CHECK(course::summarize(one).relative_spread() == 0);
    CHECK_THROWS_AS((void)course::summarize(std::vector<float>{}), std::invalid_argument);
}

TEST_CASE("gigabytes_per_second counts 10^9 bytes per second")
{
    CHECK(course::gigabytes_per_second(4e9, 1000) == doctest::Approx(4));
    CHECK(course::gigabytes_per_second(64e6, 0.02) == doctest::Approx(3200));
}

TEST_CASE("timings_are_stable needs every case below the spread limit")
{
    std::vector<course::BenchmarkResult> results(2);
    results[0].summary = course::summarize(std::vector<float>{1.00f, 1.01f, 1.00f, 0.99f});
    results[1].summary = course::summarize(std::vector<float>{1.0f, 1.3f, 0.8f, 1.1f});
    CHECK_FALSE(course::timings_are_stable(results, 0.05));
    results[1].summary = results[0].summary;
    CHECK(course::timings_are_stable(results, 0.05));
}
