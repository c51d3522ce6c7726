#pragma once
/// @file device.hpp
/// @brief Finding the GPU: whether there is one, what it is, a one-line banner.

#include <cstddef>
#include <optional>
#include <string>

namespace course {

/// What the course needs to know about one device.
struct DeviceInfo {
    int id = 0;
    std::string name;
    int cc_major = 0;  ///< compute capability, e.g. 9 for sm_90
    int cc_minor = 0;
    int multiprocessors = 0;
    int l2_bytes = 0;
    std::size_t global_bytes = 0;
    std::size_t free_bytes = 0;  ///< free when queried
    int max_threads_per_block = 0;
    int driver_version = 0;  ///< e.g. 13000 for CUDA 13.0
    int runtime_version = 0;
};

/// The result of looking for a device: either one, or a sentence saying why there is none.
struct DeviceProbe {
    std::optional<DeviceInfo> device;
    std::string reason;  ///< set when device is empty
};

/// Looks for CUDA device `id` without throwing: no driver, no device and a bad id give a reason.
[[nodiscard]] DeviceProbe probe_device(int id = 0);

/// "NVIDIA H100 80GB HBM3 (sm_90, 132 SMs, 50 MB L2, 79.2 GiB, driver 13.0, runtime 13.0)"
[[nodiscard]] std::string banner(const DeviceInfo& device);

}  // namespace course
