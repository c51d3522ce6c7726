#pragma once
/// @file latency_probe.hpp
/// @brief Lesson 06: measuring the latency of one DRAM load, for Little's law in the demo.

#include <cstddef>
#include <cstdint>

namespace lesson06 {

/// The average time of one dependent load in a random walk over an array much larger than L2.
struct LatencyProbe {
    double nanoseconds = 0;  ///< per load, launch overhead removed
    std::size_t bytes = 0;   ///< size of the array walked
    int hops = 0;            ///< loads in the timed walk
};

/// Walks a random cycle through 256 MiB with one thread (takes about 0.2 s). Needs a GPU.
[[nodiscard]] LatencyProbe measure_dram_latency(std::uint64_t seed);

}  // namespace lesson06
