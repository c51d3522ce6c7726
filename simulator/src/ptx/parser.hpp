// Parses the PTX text nvcc embeds in a fat binary into a Module.
#pragma once

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "ptx/ir.hpp"

namespace cudasim::ptx {

// Module-level failures (malformed declarations). A kernel whose body
// cannot be decoded does not throw: its Kernel::error says why.
struct ParseError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Provides host storage for a .global or .const variable; the returned
// memory must already hold zeros.
using VariableAllocator = std::function<uint8_t*(const std::string& name, uint64_t size, uint32_t align)>;

Module parse_module(std::string_view ptx, const VariableAllocator& allocate);

}  // namespace cudasim::ptx
