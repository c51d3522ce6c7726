#include "course/report.hpp"

#include <nlohmann/json.hpp>

#include <fstream>
#include <stdexcept>

namespace course {

std::string to_json(const RunReport& report)
{
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& row : report.rows)
        rows.push_back({{"kernel", row.kernel},
                        {"median_ms", row.median_ms},
                        {"min_ms", row.min_ms},
                        {"relative_spread", row.spread},
                        {"runs", row.runs},
                        {"gigabytes_per_second", row.gigabytes_per_second},
                        {"speedup", row.speedup},
                        {"correct", row.correct}});
    const nlohmann::json document = {
        {"lesson", report.lesson},
        {"device",
         {{"name", report.device.name},
          {"compute_capability", std::to_string(report.device.cc_major) + "." + std::to_string(report.device.cc_minor)},
          {"multiprocessors", report.device.multiprocessors},
          {"l2_bytes", report.device.l2_bytes}}},
        {"n", report.n},
        {"block", report.block},
        {"seed", report.seed},
        {"expected_sum", report.expected_sum},
        {"results", rows}};
    return document.dump(2);
}

void write_json(const RunReport& report, const std::string& path)
{
    std::ofstream file(path);
    if (!(file << to_json(report) << '\n'))
        throw std::runtime_error("cannot write the JSON report to " + path);
}

}  // namespace course
