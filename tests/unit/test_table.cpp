#include "course/table.hpp"

#include <doctest/doctest.h>

#include <sstream>
#include <stdexcept>
#include <string>

TEST_CASE("Table aligns columns: text left, numbers right")
{
    course::Table table({"kernel", "ms"});
    table.add_row({"neighbored", "3.341"});
    table.add_row({"less", "12.5"});
    std::ostringstream out;
    table.print(out);
    CHECK(out.str() == "kernel      ms\n"
                       "neighbored  3.341\n"
                       "less         12.5\n");
}

TEST_CASE("Table rejects a row with the wrong number of cells")
{
    course::Table table({"a", "b"});
    CHECK_THROWS_AS(table.add_row({"only one"}), std::invalid_argument);
}

TEST_CASE("fixed formats with the given digits")
{
    CHECK(course::fixed(1.23456, 2) == "1.23");
    CHECK(course::fixed(2, 0) == "2");
}
