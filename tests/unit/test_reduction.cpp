#include "course/reduction.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <optional>

#include <string>
#include <vector>

TEST_CASE("blocks_for rounds up")
{
    CHECK(course::blocks_for(1, 32) == 1);
    CHECK(course::blocks_for(32, 32) == 1);
    CHECK(course::blocks_for(33, 32) == 2);
    CHECK(course::blocks_for(std::size_t{1} << 24, 512) == 32768);
}

TEST_CASE("expected_block_sums sums each block's slice, the last one partial")
{
    const std::vector<int> input = {1, 2, 3, 4, 5};
    CHECK(course::expected_block_sums(input, 2) == std::vector<std::int64_t>{3, 7, 5});
}

TEST_CASE("compare_partials names the first wrong block and counts the rest")
{
    const std::vector<std::int64_t> expected = {3, 7, 5};
    CHECK_FALSE(course::compare_partials(std::vector<int>{3, 7, 5}, expected, 2, 5));

    const auto wrong = course::compare_partials(std::vector<int>{3, 8, 6}, expected, 2, 5);
    REQUIRE(wrong);
    CHECK(*wrong == "block 1 (elements 2..3) holds 8, expected 7; 2 of 3 blocks are wrong");

    const auto unwritten = course::compare_partials(std::vector<int>{3, 7, course::kPoisonInt}, expected, 2, 5);
    REQUIRE(unwritten);
    CHECK(unwritten->find("block 2 (elements 4..4) was never written") == 0);
}

TEST_CASE("the poison value is what the poison byte writes")
{
    int value = 0;
    std::memset(&value, course::kPoisonByte, sizeof value);
    CHECK(value == course::kPoisonInt);
}
