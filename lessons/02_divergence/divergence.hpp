#pragma once
/// @file divergence.hpp
/// @brief Lesson 02, divergence: the launchers the demo and the grader call, the kernels' registry
/// and the host references.
///
/// The student's kernels live in a module compiled from exercises/02_divergence/ (device code
/// only, declared in divergence.cuh); their launchers here are the lesson's host code, which loads
/// it (course/module.hpp). Both branch paths are in heavy_paths.hpp.
///
/// The baseline, from lessons/02_divergence/baselines.cu: every warp holds even and odd
/// elements, so it runs both paths one after the other.
/// @snippet 02_divergence/baselines.cu index_parity_divergent
/// @if with_solutions
/// The reference solution, from solutions/02_divergence/uniform_branches.cu: each warp takes the
/// elements of one parity only, and writes exactly the same output.
/// @snippet uniform_branches.cu index_parity_uniform
/// The data-dependent case, solved by sorting each block's elements by path in shared memory:
/// @snippet uniform_branches.cu value_parity_uniform
/// @endif

#include "heavy_paths.hpp"

#include "lesson02_identity.hpp"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <span>
#include <string>
#include <vector>

namespace lesson02 {

/// out[i] = f(in[i]) for i in [0, n), with blocks of `block` threads (a power of two, 32 to 1024).
using MapLauncher = void (*)(const int* in, int* out, std::size_t n, unsigned block, cudaStream_t stream);

/// mathKernel1/2 of the simpleDivergence program (from a blog post on warps and divergence): out[i] =
/// 100 or 200 depending on the branch, nothing else.
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

/// Exercise (the student's module, from exercises/02_divergence/uniform_branches.cu): the output
/// of launch_index_parity_divergent, bit for bit, with no warp running both paths. Launched with
/// threads for whole pairs of warps (divergence.cuh).
void launch_index_parity_uniform(const int* in, int* out, std::size_t n, unsigned block, cudaStream_t stream);
/// Exercise (the same module): the output of launch_value_parity_divergent, bit for bit, with no
/// warp running both paths. Launched with ceil(n / block) blocks.
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

/// A named tiny-body kernel (simpleDivergence's mathKernel1/2).
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
/// One element of it: out[i] for in[i] = `value`.
[[nodiscard]] int expected_element(Output output, std::size_t i, int value);

/// mathKernel1's output (by_warp false) or mathKernel2's (by_warp true).
[[nodiscard]] std::vector<float> expected_tiny(std::size_t n, bool by_warp);

}  // namespace lesson02
