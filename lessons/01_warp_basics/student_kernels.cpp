// Lesson 01's host side of the student's kernels: found by name in the student's modules and
// launched, record_layout on the grid and block it is asked for, count_per_warp with
// ceil(n / block) blocks after the counter is reset to 0 (warp_basics.cuh states both).
//
//   ./course grade 01

#include "warp_basics.hpp"

#include "course/cuda_check.hpp"
#include "course/module.hpp"
#include "course/reduction.hpp"

#include <cstddef>

namespace lesson01 {

void launch_record_layout(dim3 grid, dim3 block, ThreadLayout* out, cudaStream_t stream)
{
    static const course::ModuleKernel<ThreadLayout*> kernel(course::student_module(kLesson, "thread_layout"),
                                                            "record_layout");
    kernel.launch(grid, block, 0, stream, out);
}

void launch_count_per_warp(const int* data, std::size_t n, int threshold, unsigned long long* count, unsigned block,
                           cudaStream_t stream)
{
    static const course::ModuleKernel<const int*, std::size_t, int, unsigned long long*> kernel(
        course::student_module(kLesson, "count_per_warp"), "count_per_warp");
    // The kernel only adds: the count starts from 0 on every launch, timed ones included.
    COURSE_CUDA_CHECK(cudaMemsetAsync(count, 0, sizeof *count, stream));
    kernel.launch(course::blocks_for(n, block), block, 0, stream, data, n, threshold, count);
}

}  // namespace lesson01
