#include "course/data.hpp"

#include <algorithm>
#include <numeric>
#include <random>
#include <stdexcept>
#include <thread>

namespace course {

std::uint64_t fresh_seed()
{
    std::random_device entropy;
    return (std::uint64_t(entropy()) << 32 | entropy()) % 1'000'000'000ull;
}

std::uint64_t derive_seed(std::uint64_t seed, std::uint64_t stream)
{
    return splitmix64_output((seed ^ (stream * 0xD1B54A32D192ED03ull)) + kSplitMix64Step);
}

std::vector<int> random_ints(std::size_t count, std::uint64_t seed, int lo, int hi)
{
    if (lo > hi)
        throw std::invalid_argument("random_ints: lo > hi");
    std::vector<int> values(count);
    fill_in_stretches(count, [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i)
            values[i] = random_int_at(i, seed, lo, hi);
    });
    return values;
}

void fill_in_stretches(std::size_t count, const std::function<void(std::size_t, std::size_t)>& fill)
{
    constexpr std::size_t kPerThread = std::size_t{1} << 22;
    const std::size_t threads =
        std::min<std::size_t>(std::max(1u, std::thread::hardware_concurrency()), (count + kPerThread - 1) / kPerThread);
    if (threads <= 1) {
        fill(0, count);
        return;
    }
    std::vector<std::thread> workers;
    const std::size_t chunk = (count + threads - 1) / threads;
    for (std::size_t t = 0; t < threads; ++t)
        workers.emplace_back(fill, t * chunk, std::min(count, (t + 1) * chunk));
    for (auto& worker : workers)
        worker.join();
}

std::int64_t exact_sum(std::span<const int> values)
{
    return std::accumulate(values.begin(), values.end(), std::int64_t{0});
}

std::int64_t recursive_reduce(std::span<const int> values)
{
    std::vector<std::int64_t> work(values.begin(), values.end());
    std::size_t size = work.size();
    if (size == 0)
        return 0;
    while (size > 1) {
        const std::size_t half = size / 2;
        for (std::size_t i = 0; i < half; ++i)
            work[i] += work[i + half];
        if (size % 2 == 1)
            work[0] += work[size - 1];  // the odd one out joins the first element
        size = half;
    }
    return work[0];
}

}  // namespace course
