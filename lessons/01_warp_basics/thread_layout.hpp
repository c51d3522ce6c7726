#pragma once
/// @file thread_layout.hpp
/// @brief Lesson 01, exercise 1: what record_layout writes for one thread. Plain C++ with no CUDA
/// keyword, so that the student's device code (through warp_basics.cuh) and the lesson's host code
/// (warp_basics.hpp) share one definition, byte for byte.

#include <cstdint>

namespace lesson01 {

/// Three coordinates: a copy of threadIdx or blockIdx.
struct Coords {
    std::uint32_t x = 0;
    std::uint32_t y = 0;
    std::uint32_t z = 0;
    friend bool operator==(const Coords&, const Coords&) = default;
};

/// Where one thread sits: what exercise 1 records for it, in out[global]. The coordinates let the
/// grader see which thread wrote an entry, so a linearisation in the wrong order cannot pass.
struct ThreadLayout {
    Coords thread_idx;         ///< threadIdx of the thread that wrote this entry
    Coords block_idx;          ///< its blockIdx
    std::uint32_t thread = 0;  ///< linear id in its block: x + y * blockDim.x + z * blockDim.x * blockDim.y
    std::uint32_t warp = 0;    ///< warp of the block it belongs to: thread / warpSize
    std::uint32_t lane = 0;    ///< its place in that warp: thread % warpSize
    std::uint32_t global = 0;  ///< linear block id * threads per block + thread
    friend bool operator==(const ThreadLayout&, const ThreadLayout&) = default;
};

}  // namespace lesson01
