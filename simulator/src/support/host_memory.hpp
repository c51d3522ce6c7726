// How much memory this machine can still give the process: the simulator's device memory is host
// memory, so what it reports as free must fit here, not only in the modelled GPU.
#pragma once

#include <cstdint>
#include <optional>

namespace cudasim {

/// The bytes this process can still allocate: the least of the kernel's MemAvailable, the room left
/// under the process's cgroup (v2) memory limit and under its address-space limit (RLIMIT_AS);
/// nullopt where none of them can be read.
std::optional<uint64_t> host_available_bytes();

}  // namespace cudasim
