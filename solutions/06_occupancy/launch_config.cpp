// Lesson 06 reference solution, exercise 2: a launch that keeps enough bytes in flight.
//
//   ./course run 06 --solution
//   build/gpu/lessons/lesson06_grader_solution --test-case='*faster*'

#include "occupancy.hpp"

#include "course/cuda_check.hpp"

#include <cuda_runtime.h>

#include <algorithm>

namespace lesson06 {

//! [choose_launch_config]
LaunchConfig choose_launch_config(const cudaDeviceProp& device, std::size_t n)
{
    (void)device;
    // The block size that gives the highest occupancy with no dynamic shared memory (the kernel
    // needs none), and the number of such blocks that fills every SM once. The kernel's grid-stride
    // loop covers any n with that grid: all blocks stay resident until the array is done.
    int full_grid = 0;
    int block = 0;
    COURSE_CUDA_CHECK(cudaOccupancyMaxPotentialBlockSize(&full_grid, &block, scaled_add_kernel(), 0, 0));
    const std::size_t needed = (n + block - 1) / unsigned(block);
    return {unsigned(std::min<std::size_t>(std::size_t(full_grid), needed)), unsigned(block), 0};
}
//! [choose_launch_config]

}  // namespace lesson06
