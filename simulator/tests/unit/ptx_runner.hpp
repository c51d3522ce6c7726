// Helpers that parse handwritten PTX and run one of its kernels directly on
// the interpreter, without nvcc or the runtime API.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "exec/scheduling/launcher.hpp"
#include "ptx/ir.hpp"

namespace cudasim::test {

// Prepends the .version/.target/.address_size header nvcc writes.
ptx::Module parse_ptx(const std::string& body);

// `args` holds one value per kernel parameter (truncated to its size).
LaunchResult run_kernel(const ptx::Kernel& kernel, Dim3 grid, Dim3 block, const std::vector<uint64_t>& args,
                        uint32_t dynamic_smem = 0, uint64_t instruction_limit = 1'000'000'000, bool race_check = true);

// Device buffer for tests; freed by the destructor.
struct DeviceBuffer {
    explicit DeviceBuffer(size_t bytes);
    ~DeviceBuffer();
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    template <class T>
    T* as() const
    {
        return static_cast<T*>(data);
    }
    uint64_t address() const { return reinterpret_cast<uint64_t>(data); }
    void* data;
};

}  // namespace cudasim::test
