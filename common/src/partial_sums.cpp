#include "course/partial_sums.hpp"

#include <stdexcept>
#include <utility>

namespace course {

PartialSums::PartialSums(std::size_t count, std::size_t max_n, std::string owner)
    : partials_(count), max_n_(max_n), owner_(std::move(owner))
{
}

long long* PartialSums::partials_for(std::size_t n)
{
    if (n > max_n_)
        throw std::length_error(owner_ + ": a call on " + std::to_string(n) +
                                " elements; this workspace was made for at most " + std::to_string(max_n_));
    return partials_.data();
}

void PartialSums::poison(cudaStream_t stream)
{
    if (capacity() > 0)
        partials_.fill_bytes(0x7f, stream);
}

}  // namespace course
