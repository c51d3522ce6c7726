// How much memory this machine can still give the process, and large zero-filled regions that
// cost memory only where written: the simulator's device memory is host memory, so what it reports
// as free must fit here, not only in the modelled GPU.
#pragma once

#include <cstdint>
#include <optional>

namespace cudasim {

/// The bytes this process can still allocate: the least of the kernel's MemAvailable, the room left
/// under the process's cgroup (v2) memory limit and under its address-space limit (RLIMIT_AS);
/// nullopt where none of them can be read.
std::optional<uint64_t> host_available_bytes();

/// `bytes` of zeros mapped on first touch (huge pages where the kernel offers them: reading the
/// zeros of a large buffer then costs one page fault per 2 MiB, not per 4 KiB); nullptr if refused.
void* map_zero_pages(uint64_t bytes);
/// Gives back what map_zero_pages returned for the same `bytes`.
void unmap_pages(void* pages, uint64_t bytes);

}  // namespace cudasim
