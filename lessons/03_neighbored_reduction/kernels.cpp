// Lesson 03's kernel registry: the demo's rows and the names --kernel accepts.

#include "neighbored_reduction.hpp"

#include <string>
#include <vector>

namespace lesson03 {

const std::vector<course::BlockReduceKernel>& kernels()
{
    static const std::vector<course::BlockReduceKernel> registry = {
        {"neighbored", "reduceNeighbored: tid % (2*stride) selects the working threads", &launch_reduce_neighbored,
         false},
        {"neighbored-less", "reduceNeighboredLess: index = 2*stride*tid packs them into the first warps",
         &launch_reduce_neighbored_less, true},
    };
    return registry;
}

}  // namespace lesson03
