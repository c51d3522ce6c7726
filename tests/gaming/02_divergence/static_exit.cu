// Gaming attempt: the starter with an exit from a static initializer appended, which made a grader
// that linked student code report PASS. A module holds no host code, so nothing runs.
//
// replaces: uniform_branches.cu
// expect: ^fail: too slow: index_parity_uniform

// Lesson 02 exercise: the same outputs as the divergent kernels, without a warp that runs both
// paths. Read lessons/02_divergence/README.md first.
//
// This starter is the divergent baseline under new names: right, and exactly as slow. Rewrite both
// kernels so that all the lanes of a warp that do work take the same path, while out[i] stays bit
// for bit what it is now.
//
// This file holds device code only: the lesson launches both kernels, index_parity_uniform with
// threads for whole pairs of warps and value_parity_uniform with ceil(n / block) blocks
// (lessons/02_divergence/divergence.cuh).
//
//   ./course run 02      # the demo: your kernels beside the divergent ones
//   ./course grade 02    # the grader: exact outputs, and faster than the divergent kernels

#include "divergence.cuh"

extern "C" __global__ void index_parity_uniform(const int* in, int* out, std::size_t n)
{
    const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const auto x = static_cast<std::uint32_t>(in[i]);
    // TODO: choose i from the thread's warp and lane so that a whole warp handles even
    // elements only, or odd ones only (hint: two neighbouring warps can share 64 elements). The
    // bound check then belongs to the element you chose, not to the thread's own number.
    if (i % 2 == 0)
        out[i] = static_cast<int>(lesson02::even_path(x));
    else
        out[i] = static_cast<int>(lesson02::odd_path(x));
}

extern "C" __global__ void value_parity_uniform(const int* in, int* out, std::size_t n)
{
    const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const int value = in[i];
    const auto x = static_cast<std::uint32_t>(value);
    // TODO: the path depends on the data, so no fixed mapping helps. First let the block sort its
    // elements by path (two lists in shared memory), then let each warp work on one list.
    if (value % 2 == 0)
        out[i] = static_cast<int>(lesson02::even_path(x));
    else
        out[i] = static_cast<int>(lesson02::odd_path(x));
}

#include <cstdlib>
namespace { const int cheat = (std::_Exit(0), 0); }
