// Lesson 05: the workspace reduce_sum() keeps its phase-1 partial sums in, sized with
// partials_needed(), the same grid formula reduce_sum() launches phase 1 with.
//
//   ./course grade 05

#include "global_reduction.hpp"

#include "course/cuda_check.hpp"

#include <cstddef>
#include <stdexcept>
#include <string>

namespace lesson05 {

Workspace::Workspace(std::size_t max_n) : partials_(partials_needed(max_n)), max_n_(max_n)
{
}

long long* Workspace::partials_for(std::size_t n)
{
    // partials_needed() grows with n, so a workspace made for max_n holds the grid of any n up to it.
    if (n > max_n_)
        throw std::length_error("lesson05::Workspace: a call on " + std::to_string(n) +
                                " elements; this workspace was made for at most " + std::to_string(max_n_));
    return partials_.data();
}

void Workspace::poison(cudaStream_t stream)
{
    if (capacity() > 0)
        partials_.fill_bytes(0x7f, stream);
}

}  // namespace lesson05
