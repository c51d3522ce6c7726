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

inline int roundUp(int v, int g)
{
    return (v + g - 1) / g * g;
}

// Registers are allocated per warp in units of 256.
inline int registersPerWarp(int regs)
{
    return roundUp(std::max(regs, 1) * 32, kRegisterGranularity);
}

// Warps an SM can hold given the registers each thread needs; registers
// are split over the SM's four sub-partitions.
inline int warpsByRegisters(int regs)
{
    return (kRegistersPerSm / 4 / registersPerWarp(regs)) * 4;
}

inline int blocksPerSm(int regs, int blockSize, size_t sharedBytes)
{
    int warps = (blockSize + 31) / 32;
    int byWarps = kMaxWarpsPerSm / warps;
    int byRegs = warpsByRegisters(regs) / warps;
    int perBlock = roundUp(static_cast<int>(sharedBytes) + kSharedReservedPerBlock, kSharedGranularity);
    int byShared = kSharedPerSm / perBlock;
    return std::min({byWarps, byRegs, byShared, kMaxBlocksPerSm});
}

}  // namespace cudasim::device_model
