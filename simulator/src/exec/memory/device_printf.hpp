// Device-side printf (PTX `call vprintf`) and assert (`__assertfail`).
#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace cudasim {

// Returns host memory for `size` bytes at a generic device address, or
// throws DeviceFault.
using DeviceReader = std::function<const uint8_t*(uint64_t addr, uint32_t size)>;

// Formats like printf, taking arguments from the packed buffer nvcc builds
// (each argument aligned to its size; floats promoted to double). Appends
// to `out` and returns the number of arguments it took, as CUDA's device printf does.
int format_device_printf(uint64_t format, uint64_t args, const DeviceReader& read, std::string& out);

std::string describe_assertion(uint64_t message, uint64_t file, uint64_t line, uint64_t function,
                               const DeviceReader& read);

}  // namespace cudasim
