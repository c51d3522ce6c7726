// Lesson 04's kernel registry: the reduction ladder so far, in global memory and in shared memory.
// The first two rows are lesson 03's kernels, the course's own whatever the student's lesson 03
// holds: its baseline, and its reference module of neighbored-less (not copied here).
//
//   ./course run 04 --help      # lists the names --kernel accepts

#include "interleaved_reduction.hpp"

#include "neighbored_reduction.hpp"

#include <string>
#include <vector>

namespace lesson04 {

const std::vector<course::BlockReduceKernel>& kernels()
{
    static const std::vector<course::BlockReduceKernel> registry = {
        {"neighbored", "lesson 03 baseline, global memory: tid % (2*stride) adds", &lesson03::launch_reduce_neighbored,
         false},
        {"neighbored-less", "lesson 03 reference, global memory: index = 2*stride*tid adds",
         &lesson03::launch_reference_reduce_neighbored_less, false},
        {"interleaved", "global memory: stride = blockDim/2, halving; tid < stride adds", &launch_reduce_interleaved,
         true},
        {"shared-neighbored", "shared memory, version 1: tid % (2*stride) adds", &launch_reduce_shared_neighbored,
         false},
        {"shared-neighbored-less", "shared memory, version 2: index = 2*stride*tid (bank conflicts)",
         &launch_reduce_shared_neighbored_less, false},
        {"shared-interleaved", "shared memory, sequential addressing: tid < stride adds",
         &launch_reduce_shared_interleaved, true},
    };
    return registry;
}

}  // namespace lesson04
