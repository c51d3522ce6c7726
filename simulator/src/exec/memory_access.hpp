// Address translation with the checks compute-sanitizer's memcheck does:
// every access must fall inside a live allocation (global), the block's
// shared memory, the thread's local frame or the parameter buffer, and be
// aligned to its size.
#pragma once

#include <cstdint>

#include "exec/block_state.hpp"
#include "exec/launch_context.hpp"
#include "exec/warp.hpp"
#include "ptx/ir.hpp"

namespace cudasim {

struct AccessSite {
  const LaunchContext* launch;
  const BlockState* block;
  const Warp* warp;
  int lane;
  uint32_t line;
};

// Where a resolved access landed (for counters).
enum class ResolvedSpace { Global, Shared, Local, Param };

class MemoryAccess {
 public:
  // Returns the host pointer for `size` bytes at `addr` in `space`, or
  // throws DeviceFault.
  uint8_t* resolve(ptx::Space space, uint64_t addr, uint32_t size, bool write,
                   const AccessSite& site, BlockState& block, ResolvedSpace& where);

 private:
  uint8_t* global(uint64_t addr, uint32_t size, bool write, const AccessSite& site);
  // One-entry cache of the last allocation hit, valid during one launch.
  uintptr_t cachedBase_ = 1;
  uintptr_t cachedEnd_ = 0;
};

[[noreturn]] void throwAccessFault(cudaError_t error, const char* space, bool write, uint32_t size,
                                   uint64_t addr, const std::string& why, const AccessSite& site);

std::string describeThread(const AccessSite& site);
// `_Z6reducePii` -> `reduce(int*, int)`; other names are returned as they are.
std::string demangle(const std::string& name);

}  // namespace cudasim
