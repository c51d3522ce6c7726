#pragma once
/// @file partial_sums.hpp
/// @brief The device memory a whole-array reduction keeps its blocks' 64-bit partial sums in
/// (lessons 05 and 09): sized once for the largest array, reused by every call.

#include "course/device_buffer.hpp"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>

namespace course {

/// `count` partials, enough for arrays of up to max_n elements. A lesson's workspace is one of these
/// (with what else its kernels need), sized with the grid formula its launches use.
class PartialSums {
public:
    /// `owner` names the workspace in the error of a call on too many elements.
    PartialSums(std::size_t count, std::size_t max_n, std::string owner);

    [[nodiscard]] std::size_t max_n() const { return max_n_; }
    /// Partials the workspace holds.
    [[nodiscard]] std::size_t capacity() const { return partials_.size(); }

    /// The partials for a call on n elements; throws std::length_error when n is above max_n() (the
    /// grid grows with n, so room for max_n is room for any n up to it).
    [[nodiscard]] long long* partials_for(std::size_t n);

    /// Overwrites every partial with a poison pattern on `stream` (the graders do, so that a kernel
    /// that reads a partial no block wrote gets a wrong sum).
    void poison(cudaStream_t stream);

private:
    DeviceBuffer<long long> partials_;
    std::size_t max_n_;
    std::string owner_;
};

}  // namespace course
