#pragma once
/// @file device_buffer.hpp
/// @brief DeviceBuffer<T>: an owning, move-only array in device memory.

#include "course/cuda_check.hpp"

#include <cstddef>
#include <span>
#include <utility>
#include <vector>

namespace course {

/// cudaMalloc'd storage for `size()` elements of T, freed on destruction.
template <class T>
class DeviceBuffer {
public:
    DeviceBuffer() = default;
    explicit DeviceBuffer(std::size_t count) : size_(count)
    {
        if (count > 0)
            COURSE_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&data_), count * sizeof(T)));
    }
    /// Allocates and copies `host` into device memory.
    explicit DeviceBuffer(std::span<const T> host) : DeviceBuffer(host.size()) { upload(host); }

    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    DeviceBuffer(DeviceBuffer&& other) noexcept
        : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0))
    {
    }
    DeviceBuffer& operator=(DeviceBuffer&& other) noexcept
    {
        std::swap(data_, other.data_);
        std::swap(size_, other.size_);
        return *this;
    }
    ~DeviceBuffer()
    {
        if (data_ != nullptr)
            COURSE_CUDA_CHECK_NOEXCEPT(cudaFree(data_));
    }

    [[nodiscard]] T* data() const noexcept { return data_; }
    [[nodiscard]] std::size_t size() const noexcept { return size_; }
    [[nodiscard]] std::size_t bytes() const noexcept { return size_ * sizeof(T); }

    /// Copies `host` into device memory; the data is there when this returns, for every stream.
    void upload(std::span<const T> host)
    {
        COURSE_CUDA_CHECK(cudaMemcpy(data_, host.data(), host.size_bytes(), cudaMemcpyHostToDevice));
        // From pageable memory, cudaMemcpy may return once the data is staged, before the DMA to
        // device memory ends; the legacy default stream orders it, but work on a non-blocking
        // stream (the benchmark's, a grader's) could read the old contents. Wait for it.
        COURSE_CUDA_CHECK(cudaStreamSynchronize(nullptr));
    }
    [[nodiscard]] std::vector<T> download() const
    {
        std::vector<T> host(size_);
        COURSE_CUDA_CHECK(cudaMemcpy(host.data(), data_, bytes(), cudaMemcpyDeviceToHost));
        return host;
    }
    /// Fills every byte with `byte` (a poison pattern, so that unwritten results stand out).
    void fill_bytes(unsigned char byte, cudaStream_t stream = nullptr)
    {
        COURSE_CUDA_CHECK(cudaMemsetAsync(data_, byte, bytes(), stream));
    }
    /// Copies `source` (same size) into this buffer, on the device.
    void copy_from(const DeviceBuffer& source, cudaStream_t stream = nullptr)
    {
        COURSE_CUDA_CHECK(cudaMemcpyAsync(data_, source.data_, source.bytes(), cudaMemcpyDeviceToDevice, stream));
    }

private:
    T* data_ = nullptr;
    std::size_t size_ = 0;
};

}  // namespace course
