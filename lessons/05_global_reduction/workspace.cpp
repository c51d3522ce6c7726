// Lesson 05: the workspace reduce_sum() keeps its phase-1 partial sums in. Its size comes from the
// student's partials_needed(), so the grid stays the student's choice.
//
//   ./course grade 05

#include "global_reduction.hpp"

#include "course/cuda_check.hpp"

#include <stdexcept>
#include <string>

namespace lesson05 {

Workspace::Workspace(std::size_t max_n) : partials_(partials_needed(max_n)), max_n_(max_n) {}

long long* Workspace::partials_for(std::size_t n)
{
    const std::size_t needed = partials_needed(n);
    if (n > max_n_ || needed > capacity())
        throw std::length_error("lesson05::Workspace: a call on " + std::to_string(n) + " elements needs " +
                                std::to_string(needed) + " partials; this workspace was made for " +
                                std::to_string(max_n_) + " elements and holds " + std::to_string(capacity()));
    return partials_.data();
}

void Workspace::poison(cudaStream_t stream)
{
    if (capacity() > 0)
        partials_.fill_bytes(0x7f, stream);
}

}  // namespace lesson05
