// Lesson 04's host side of the student's kernels: each found by name in its module (the student's,
// or the course's reference) and launched with ceil(n / block) blocks.

#include "interleaved_reduction.hpp"

#include "course/module.hpp"

#include <cstddef>

namespace lesson04 {

void launch_reduce_interleaved(int* data, int* partials, std::size_t n, unsigned block, cudaStream_t stream)
{
    static const course::ModuleKernel<int*, int*, std::size_t> kernel(
        course::student_module(kLesson, "reduce_interleaved"), "reduce_interleaved");
    kernel.launch(course::blocks_for(n, block), block, 0, stream, data, partials, n);
}

void launch_reduce_shared_interleaved(int* data, int* partials, std::size_t n, unsigned block, cudaStream_t stream)
{
    static const course::ModuleKernel<const int*, int*, std::size_t> kernel(
        course::student_module(kLesson, "reduce_shared_interleaved"), "reduce_shared_interleaved");
    // One int of shared memory per thread: the kernel's `extern __shared__` array.
    kernel.launch(course::blocks_for(n, block), block, block * sizeof(int), stream, data, partials, n);
}

}  // namespace lesson04
