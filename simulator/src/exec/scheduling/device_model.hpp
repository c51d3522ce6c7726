// Resource limits of the modelled H100 and the occupancy arithmetic that
// uses them (launch validation, cudaFuncGetAttributes, occupancy API).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace cudasim::device_model {

constexpr int kMultiprocessors = 132;
constexpr uint64_t kL2Bytes = 50ull * 1024 * 1024;
constexpr uint64_t kGlobalMemoryBytes = 80ull << 30;  // an H100 SXM's 80 GB
constexpr int kMaxThreadsPerSm = 2048;
constexpr int kMaxThreadsPerBlock = 1024;
constexpr int kMaxWarpsPerSm = 64;
constexpr int kMaxBlocksPerSm = 32;
constexpr int kRegistersPerSm = 65536;
constexpr int kRegisterGranularity = 256;  // per warp
constexpr int kSharedPerSm = 228 * 1024;
constexpr int kSharedReservedPerBlock = 1024;
constexpr int kSharedGranularity = 128;
constexpr int kDefaultSharedPerBlock = 48 * 1024;
constexpr int kOptInSharedPerBlock = 227 * 1024;

inline int round_up(int v, int g)
{
    return (v + g - 1) / g * g;
}

// Registers are allocated per warp in units of 256.
inline int registers_per_warp(int regs)
{
    return round_up(std::max(regs, 1) * 32, kRegisterGranularity);
}

// Warps an SM can hold given the registers each thread needs; registers
// are split over the SM's four sub-partitions.
inline int warps_by_registers(int regs)
{
    return (kRegistersPerSm / 4 / registers_per_warp(regs)) * 4;
}

inline int blocks_per_sm(int regs, int block_size, size_t shared_bytes)
{
    int warps = (block_size + 31) / 32;
    int by_warps = kMaxWarpsPerSm / warps;
    int by_regs = warps_by_registers(regs) / warps;
    int per_block = round_up(static_cast<int>(shared_bytes) + kSharedReservedPerBlock, kSharedGranularity);
    int by_shared = kSharedPerSm / per_block;
    return std::min({by_warps, by_regs, by_shared, kMaxBlocksPerSm});
}

}  // namespace cudasim::device_model
