#include "course/table.hpp"

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <iomanip>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <utility>

namespace course {
namespace {

bool looks_numeric(const std::string& cell)
{
    return !cell.empty() &&
           (std::isdigit(static_cast<unsigned char>(cell.front())) != 0 || (cell.front() == '-' && cell.size() > 1));
}

}  // namespace

Table::Table(std::vector<std::string> header)
{
    rows_.push_back(std::move(header));
}

void Table::add_row(std::vector<std::string> cells)
{
    if (cells.size() != rows_.front().size())
        throw std::invalid_argument("Table::add_row: " + std::to_string(cells.size()) + " cells for " +
                                    std::to_string(rows_.front().size()) + " columns");
    rows_.push_back(std::move(cells));
}

void Table::print(std::ostream& out) const
{
    std::vector<std::size_t> widths(rows_.front().size(), 0);
    for (const auto& row : rows_)
        for (std::size_t column = 0; column < row.size(); ++column)
            widths[column] = std::max(widths[column], row[column].size());

    for (std::size_t r = 0; r < rows_.size(); ++r) {
        std::string line;
        for (std::size_t column = 0; column < widths.size(); ++column) {
            const std::string& cell = rows_[r][column];
            const std::string pad(widths[column] - cell.size(), ' ');
            const bool right = r > 0 && looks_numeric(cell);
            line += right ? pad + cell : cell + pad;
            if (column + 1 < widths.size())
                line += "  ";
        }
        line.erase(line.find_last_not_of(' ') + 1);
        out << line << '\n';
    }
}

std::string fixed(double value, int digits)
{
    std::ostringstream text;
    text << std::fixed << std::setprecision(digits) << value;
    return text.str();
}

}  // namespace course
