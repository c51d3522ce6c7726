#include "course/stats.hpp"

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <vector>

namespace course {
namespace {

double quantile(const std::vector<float>& sorted, double q)
{
    const double position = q * double(sorted.size() - 1);
    const auto below = static_cast<std::size_t>(position);
    const std::size_t above = std::min(below + 1, sorted.size() - 1);
    const double weight = position - double(below);
    return (1 - weight) * sorted[below] + weight * sorted[above];
}

}  // namespace

TimingSummary summarize(std::span<const float> samples)
{
    if (samples.empty())
        throw std::invalid_argument("summarize: no samples");
    std::vector<float> sorted(samples.begin(), samples.end());
    std::sort(sorted.begin(), sorted.end());
    return {quantile(sorted, 0.5),  sorted.front(),         sorted.back(),
            quantile(sorted, 0.25), quantile(sorted, 0.75), int(sorted.size())};
}

double gigabytes_per_second(double bytes, double milliseconds)
{
    return milliseconds > 0 ? bytes / (milliseconds * 1e6) : 0;
}

}  // namespace course
