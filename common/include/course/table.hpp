#pragma once
/// @file table.hpp
/// @brief Plain-text tables for the demos: a header row, aligned columns.

#include <iosfwd>
#include <string>
#include <vector>

namespace course {

/// Collects rows of cells, then prints them with every column as wide as its widest cell.
/// Cells that look like numbers are right-aligned, the rest left-aligned.
class Table {
public:
    explicit Table(std::vector<std::string> header);

    /// Adds a row; it must have as many cells as the header.
    void add_row(std::vector<std::string> cells);
    void print(std::ostream& out) const;

private:
    std::vector<std::vector<std::string>> rows_;  // rows_[0] is the header
};

/// `value` with `digits` digits after the point.
[[nodiscard]] std::string fixed(double value, int digits);

}  // namespace course
