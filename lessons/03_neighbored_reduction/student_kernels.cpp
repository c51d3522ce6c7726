// Lesson 03's host side of the student's kernel: found by name in the student's module (or the
// course's reference module) and launched with ceil(n / block) blocks.

#include "neighbored_reduction.hpp"

#include "course/module.hpp"

#include <cstddef>

namespace lesson03 {
namespace {

using ReduceKernel = course::ModuleKernel<int*, int*, std::size_t>;

void launch(const ReduceKernel& kernel, int* data, int* partials, std::size_t n, unsigned block, cudaStream_t stream)
{
    kernel.launch(course::blocks_for(n, block), block, 0, stream, data, partials, n);
}

}  // namespace

void launch_reduce_neighbored_less(int* data, int* partials, std::size_t n, unsigned block, cudaStream_t stream)
{
    static const ReduceKernel kernel(course::student_module(kLesson, "reduce_neighbored_less"),
                                     "reduce_neighbored_less");
    launch(kernel, data, partials, n, block, stream);
}

void launch_reference_reduce_neighbored_less(int* data, int* partials, std::size_t n, unsigned block,
                                             cudaStream_t stream)
{
    static const ReduceKernel kernel(course::reference_module(kLesson, "reduce_neighbored_less"),
                                     "reduce_neighbored_less");
    launch(kernel, data, partials, n, block, stream);
}

}  // namespace lesson03
