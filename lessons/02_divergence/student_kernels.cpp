// Lesson 02's host side of the student's kernels: found by name in the student's module and
// launched, index_parity_uniform with threads for whole pairs of warps, value_parity_uniform with
// ceil(n / block) blocks (divergence.cuh states both).
//
//   ./course grade 02

#include "divergence.hpp"

#include "course/module.hpp"
#include "course/reduction.hpp"

#include <cstddef>

namespace lesson02 {
namespace {

using UniformKernel = course::ModuleKernel<const int*, int*, std::size_t>;

/// The threads of two warps: a pair may split its 64 elements by parity, so the grid holds the odd
/// warp of the last pair even when n is not a multiple of 64.
constexpr std::size_t kWarpPair = 64;

}  // namespace

void launch_index_parity_uniform(const int* in, int* out, std::size_t n, unsigned block, cudaStream_t stream)
{
    static const UniformKernel kernel(course::student_module(kLesson, "uniform_branches"), "index_parity_uniform");
    const std::size_t threads = (n + kWarpPair - 1) / kWarpPair * kWarpPair;
    kernel.launch(course::blocks_for(threads, block), block, 0, stream, in, out, n);
}

void launch_value_parity_uniform(const int* in, int* out, std::size_t n, unsigned block, cudaStream_t stream)
{
    static const UniformKernel kernel(course::student_module(kLesson, "uniform_branches"), "value_parity_uniform");
    kernel.launch(course::blocks_for(n, block), block, 0, stream, in, out, n);
}

}  // namespace lesson02
