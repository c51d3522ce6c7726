#include "course/benchmark.hpp"

#include "course/cuda_check.hpp"
#include "course/cuda_handles.hpp"
#include "course/device_buffer.hpp"
#include "course/gpu_sharing.hpp"
#include "course/kernel_profile.hpp"

#include <algorithm>
#include <cstddef>
#include <optional>
#include <ostream>

namespace course {
namespace {

/// Overwrites a buffer twice the size of L2, so that no earlier data is left in the cache.
class L2Flusher {
public:
    L2Flusher()
    {
        int device = 0;
        int l2_bytes = 0;
        COURSE_CUDA_CHECK(cudaGetDevice(&device));
        COURSE_CUDA_CHECK(cudaDeviceGetAttribute(&l2_bytes, cudaDevAttrL2CacheSize, device));
        buffer_ = DeviceBuffer<unsigned char>(2 * std::size_t(l2_bytes));
    }
    void flush(cudaStream_t stream) { buffer_.fill_bytes(static_cast<unsigned char>(++round_), stream); }

private:
    DeviceBuffer<unsigned char> buffer_;
    unsigned round_ = 0;
};

float time_one_run(const BenchmarkCase& item, cudaStream_t stream, L2Flusher* flusher, const Event& start,
                   const Event& stop)
{
    if (item.setup)
        item.setup(stream);
    if (flusher != nullptr)
        flusher->flush(stream);
    COURSE_CUDA_CHECK(cudaEventRecord(start.get(), stream));
    item.run(stream);
    COURSE_CHECK_LAUNCH();
    COURSE_CUDA_CHECK(cudaEventRecord(stop.get(), stream));
    COURSE_CUDA_CHECK(cudaEventSynchronize(stop.get()));
    const float milliseconds = stop.milliseconds_since(start);
    if (item.check)
        item.check(stream);
    return milliseconds;
}

}  // namespace

bool timings_are_stable(std::span<const BenchmarkResult> results, double stable_spread)
{
    return std::all_of(results.begin(), results.end(),
                       [&](const BenchmarkResult& result) { return result.summary.relative_spread() < stable_spread; });
}

std::vector<BenchmarkResult> run_interleaved(std::span<const BenchmarkCase> cases, const BenchmarkOptions& options)
{
    // Nothing else of the course's runs on the GPU while this process times it; on the simulator,
    // every launch counted, whatever scope this is in.
    const ExclusiveGpu alone;
    const SimulatorCounting counted(true);
    Stream stream;
    Event start;
    Event stop;
    std::optional<L2Flusher> flusher;
    if (options.flush_l2)
        flusher.emplace();
    L2Flusher* flush = flusher ? &*flusher : nullptr;

    for (int round = 0; round < options.warmup_runs; ++round)
        for (const auto& item : cases)
            (void)time_one_run(item, stream.get(), flush, start, stop);

    std::vector<BenchmarkResult> results;
    for (const auto& item : cases)
        results.push_back({item.name, {}, {}});
    for (int round = 0; round < options.max_runs; ++round) {
        for (std::size_t i = 0; i < cases.size(); ++i) {
            if (options.progress != nullptr)
                *options.progress << "  " << (kOnSimulator ? "modelling " : "timing ") << cases[i].name << ", run "
                                  << round + 1 << " of " << (options.min_runs < options.max_runs ? "up to " : "")
                                  << options.max_runs << std::endl;
            results[i].milliseconds.push_back(time_one_run(cases[i], stream.get(), flush, start, stop));
            results[i].summary = summarize(results[i].milliseconds);
        }
        if (round + 1 >= options.min_runs && timings_are_stable(results, options.stable_spread))
            break;
    }
    return results;
}

}  // namespace course
