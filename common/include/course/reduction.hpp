#pragma once
/// @file reduction.hpp
/// @brief Block reductions of int arrays: the launcher signature lessons 03, 04 and 07 share, and a
/// bench that runs any such launcher on one input and checks its partial sums.
///
/// A block reduction leaves one partial sum per block: with grid = ceil(n / block), block b sums
/// elements [b * block, min(n, (b + 1) * block)) into partials[b]. It may overwrite its input (the
/// in-place kernels of Professional CUDA C Programming, ch. 3, do), so the bench restores the input
/// before every run. An unrolled block reduction (lesson 07) has each block of `block` threads sum
/// d data blocks of `block` elements: grid = ceil(n / (d * block)), and partials[b] holds the sum
/// of elements [b * d * block, min(n, (b + 1) * d * block)); check it with
/// expected_block_sums(input, d * block).

#include "course/device_buffer.hpp"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace course {

/// Launches a block reduction of `data[0, n)` into `partials[0, blocks_for(n, block))` on `stream`.
using BlockReduceLauncher = void (*)(int* data, int* partials, std::size_t n, unsigned block, cudaStream_t stream);

/// How many data blocks of `block` elements one block of a kernel sums into one partial (lesson
/// 07's unrolled kernels; for the student's kernel, read from their module when first asked).
using DataBlocksQuery = unsigned (*)();

/// A named block reduction, as listed in a lesson's registry.
struct BlockReduceKernel {
    std::string name;     ///< what --kernel accepts, e.g. "neighbored-less"
    std::string summary;  ///< one line: what it does
    BlockReduceLauncher launch = nullptr;
    bool written_by_student = false;        ///< lives in exercises/ (or solutions/ for the reference)
    DataBlocksQuery data_blocks = nullptr;  ///< nullptr: one data block per block, as lessons 03-05's
};

/// The data blocks each block of `kernel` sums: 1 unless its registry entry says otherwise.
[[nodiscard]] inline unsigned data_blocks_of(const BlockReduceKernel& kernel)
{
    return kernel.data_blocks == nullptr ? 1u : kernel.data_blocks();
}

/// Number of blocks that cover n elements: ceil(n / block).
[[nodiscard]] constexpr unsigned blocks_for(std::size_t n, unsigned block)
{
    return static_cast<unsigned>((n + block - 1) / block);
}

/// Byte written over the partials before each run: 0x7f7f7f7f can never be a block sum of the
/// course's inputs, so a partial still holding it was not written.
inline constexpr unsigned char kPoisonByte = 0x7f;
inline constexpr int kPoisonInt = 0x7f7f7f7f;

/// The sum of each block's slice of `input`, in 64 bits.
[[nodiscard]] std::vector<std::int64_t> expected_block_sums(std::span<const int> input, unsigned block);

/// The first wrong partial as a sentence ("block 1 (elements 512..1023) holds 7, expected 9;
/// 3 of 33 blocks are wrong"), or nothing when all match.
[[nodiscard]] std::optional<std::string>
compare_partials(std::span<const int> got, std::span<const std::int64_t> expected, unsigned block, std::size_t n);

/// Elements past the end of the input, filled with the poison value: a kernel that reads beyond n
/// (a missing bound check) adds poison and gets a wrong sum every time, instead of adding whatever
/// an earlier allocation left there, which may happen to be zero.
inline constexpr std::size_t kGuardElements = 1024;

/// Device buffers for running block reductions on one input with one block size.
class BlockReductionBench {
public:
    BlockReductionBench(std::span<const int> input, unsigned block);

    [[nodiscard]] std::size_t n() const { return n_; }
    [[nodiscard]] unsigned block() const { return block_; }
    [[nodiscard]] unsigned grid() const { return blocks_for(n(), block_); }

    /// Replaces the input by `input` (same n), in the same device buffers: a kernel that remembers
    /// its last answer per pointer gets the new input wrong.
    void replace_input(std::span<const int> input);
    /// Copies the original input (and guard) back over the working array: in-place kernels destroy it.
    void restore(cudaStream_t stream) { working_.copy_from(pristine_, stream); }
    /// After restore: writes `values[i]` at index `positions[i]` of the working array (a few
    /// changed elements, so that no two runs see the same input).
    void change(std::span<const std::size_t> positions, std::span<const int> values, cudaStream_t stream);
    /// Fills the partials with the poison pattern.
    void poison(cudaStream_t stream) { partials_.fill_bytes(kPoisonByte, stream); }
    /// Launches `launch` on the working array; checks the launch.
    void launch(BlockReduceLauncher launch, cudaStream_t stream);
    /// restore, poison, launch, wait, download: one complete, checked run.
    [[nodiscard]] std::vector<int> run_once(BlockReduceLauncher launch);
    /// The partials as the last run left them.
    [[nodiscard]] std::vector<int> partials() const { return partials_.download(); }

private:
    DeviceBuffer<int> pristine_;
    DeviceBuffer<int> working_;
    DeviceBuffer<int> partials_;
    std::size_t n_;
    unsigned block_;
};

}  // namespace course
