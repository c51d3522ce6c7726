#pragma once
/// @file divergence.hpp
/// @brief Lesson 02, divergence: the per-element work both branch paths do, and the launchers the
/// demo and the grader call.
///
/// The baseline, from lessons/02_divergence/divergent_kernels.cu: every warp holds even and odd
/// elements, so it runs both paths one after the other.
/// @snippet divergent_kernels.cu index_parity_divergent
/// The reference solution, from solutions/02_divergence/uniform_branches.cu: each warp takes the
/// elements of one parity only, and writes exactly the same output.
/// @snippet uniform_branches.cu index_parity_uniform
/// The data-dependent case, solved by sorting each block's elements by path in shared memory:
/// @snippet uniform_branches.cu value_parity_uniform

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#if defined(__CUDACC__)
#define LESSON02_HOST_DEVICE __host__ __device__
#else
#define LESSON02_HOST_DEVICE
#endif

namespace lesson02 {

/// Rounds of each heavy path: enough work that running both paths costs about twice one.
inline constexpr int kHeavyRounds = 64;

/// The work an element on the even path gets: integer arithmetic only, so the host computes the
/// very same bits and outputs compare exactly.
LESSON02_HOST_DEVICE inline std::uint32_t even_path(std::uint32_t x)
{
    for (int round = 0; round < kHeavyRounds; ++round) {
        x = x * 0x9E3779B1u + 0x7F4A7C15u;
        x ^= x >> 15;
    }
    return x;
}

/// The work an element on the odd path gets: different instructions from even_path, so the
/// compiler cannot fold the two paths into one.
LESSON02_HOST_DEVICE inline std::uint32_t odd_path(std::uint32_t x)
{
    for (int round = 0; round < kHeavyRounds; ++round) {
        x = ((x << 7) | (x >> 25)) ^ (x + 0x632BE5ABu);
        x += x >> 11;
    }
    return x;
}

/// out[i] = f(in[i]) for i in [0, n), with blocks of `block` threads (a power of two, 32 to 1024).
using MapLauncher = void (*)(const int* in, int* out, std::size_t n, unsigned block, cudaStream_t stream);

/// The seed's mathKernel1/2: out[i] = 100 or 200 depending on the branch, nothing else.
using TinyLauncher = void (*)(float* out, std::size_t n, unsigned block, cudaStream_t stream);

/// mathKernel1: branch on tid % 2, a one-assignment body on each side.
void launch_tiny_by_thread(float* out, std::size_t n, unsigned block, cudaStream_t stream);
/// mathKernel2: branch on (tid / warpSize) % 2, the same bodies.
void launch_tiny_by_warp(float* out, std::size_t n, unsigned block, cudaStream_t stream);

/// Baseline: out[i] = i even ? even_path(in[i]) : odd_path(in[i]); every warp diverges.
void launch_index_parity_divergent(const int* in, int* out, std::size_t n, unsigned block, cudaStream_t stream);
/// Baseline: out[i] = in[i] even ? even_path(in[i]) : odd_path(in[i]); random data, every warp diverges.
void launch_value_parity_divergent(const int* in, int* out, std::size_t n, unsigned block, cudaStream_t stream);
/// For comparison (another output): out[i] = (i / 32) even ? even_path(in[i]) : odd_path(in[i]).
void launch_warp_parity(const int* in, int* out, std::size_t n, unsigned block, cudaStream_t stream);

/// Exercise (exercises/02_divergence/uniform_branches.cu): the output of
/// launch_index_parity_divergent, bit for bit, with no warp running both paths.
void launch_index_parity_uniform(const int* in, int* out, std::size_t n, unsigned block, cudaStream_t stream);
/// Exercise: the output of launch_value_parity_divergent, bit for bit, with no warp running both paths.
void launch_value_parity_uniform(const int* in, int* out, std::size_t n, unsigned block, cudaStream_t stream);

/// Which host reference a kernel's output is compared with.
enum class Output { index_parity, value_parity, warp_parity };

/// A named element-wise kernel, as listed in the lesson's registry.
struct MapKernel {
    std::string name;     ///< what --kernel accepts, e.g. "index-uniform"
    std::string summary;  ///< one line: what it does
    MapLauncher launch = nullptr;
    Output output = Output::index_parity;
    bool written_by_student = false;
    std::string baseline;  ///< name of the kernel its speedup is measured against; empty: none
};

/// A named tiny-body kernel (the seed's mathKernel1/2).
struct TinyKernel {
    std::string name;
    std::string summary;
    TinyLauncher launch = nullptr;
    bool by_warp = false;
    std::string baseline;
};

/// The lesson's kernels, each baseline before the kernels measured against it.
[[nodiscard]] const std::vector<TinyKernel>& tiny_kernels();
[[nodiscard]] const std::vector<MapKernel>& map_kernels();

/// The host reference of `output` for input `in`.
[[nodiscard]] std::vector<int> expected_output(Output output, std::span<const int> in);

/// Host references.
[[nodiscard]] std::vector<int> expected_index_parity(std::span<const int> in);
[[nodiscard]] std::vector<int> expected_value_parity(std::span<const int> in);
[[nodiscard]] std::vector<int> expected_warp_parity(std::span<const int> in);
/// mathKernel1's output (by_warp false) or mathKernel2's (by_warp true).
[[nodiscard]] std::vector<float> expected_tiny(std::size_t n, bool by_warp);

}  // namespace lesson02
