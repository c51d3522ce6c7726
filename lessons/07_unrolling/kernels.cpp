// Lesson 07's kernel registry: lesson 04's shared-memory reduction (the baseline), unrolled one
// step at a time, and the student's kernel last.
//
//   ./course run 07 --help      # lists the names --kernel accepts

#include "unrolling.hpp"

#include <string>
#include <vector>

namespace lesson07 {

const std::vector<course::BlockReduceKernel>& kernels()
{
    static const std::vector<course::BlockReduceKernel> registry = {
        {"shared-interleaved", "lesson 04 reference: one element per thread, tree with __syncthreads",
         &launch_reduce_shared_interleaved, false},
        {"unrolling2", "2 data blocks added during the load, then the tree", &launch_reduce_unrolling2, false,
         [] { return 2u; }},
        {"unrolling4", "4 data blocks added during the load, then the tree", &launch_reduce_unrolling4, false,
         [] { return 4u; }},
        {"unrolling8", "8 data blocks added during the load, then the tree", &launch_reduce_unrolling8, false,
         [] { return 8u; }},
        {"unrolled-warp8", "8 data blocks; the last warp's steps with __syncwarp", &launch_reduce_unrolled_warp8, false,
         [] { return 8u; }},
        {"complete-unroll8", "8 data blocks, last warp unrolled, block size a template parameter",
         &launch_reduce_complete_unroll8, false, [] { return 8u; }},
        {"unrolled", "yours: reduce_unrolled_<block>, reduce_unrolled_data_blocks per block", &launch_reduce_unrolled,
         true, &reduce_unrolled_data_blocks},
    };
    return registry;
}

}  // namespace lesson07
