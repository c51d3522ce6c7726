// Address translation with the checks compute-sanitizer's memcheck does:
// every access must fall inside a live allocation (global), the block's
// shared memory, the thread's local frame or the parameter buffer, and be
// aligned to its size.
#pragma once

#include <cstdint>
#include <string>

#include "exec/memory/written_bytes.hpp"
#include "exec/scheduling/block_state.hpp"
#include "exec/scheduling/launch_context.hpp"
#include "exec/scheduling/warp.hpp"
#include "ptx/ir.hpp"

namespace cudasim {

struct AccessSite {
    const LaunchContext* launch;
    const BlockState* block;
    const Warp* warp;
    int lane;
    uint32_t line;
    const ptx::Instr* instr = nullptr;  // for its .loc source position, if any
};

// Where a resolved access landed (for counters).
enum class ResolvedSpace { Global, Shared, Local, Param };

class MemoryAccess {
public:
    MemoryAccess(const uint8_t* params, uint32_t paramBytes) : params_(params), paramBytes_(paramBytes) {}

    // Returns the host pointer for `size` bytes at `addr` in `space`, or
    // throws DeviceFault.
    // Whole-warp fast path: if every lane's access of `size` bytes in
    // [lowest, highest + size) is aligned (`addressBits` is the OR of all
    // addresses) and falls in one allocation or in shared memory, returns
    // true and the offset that turns an address into a host pointer.
    // A shared access must also stay within the variable `symbol` names (ptx::Instr::sharedSymbol).
    bool translateRange(ptx::Space space, uint64_t lowest, uint64_t highest, uint64_t addressBits, uint32_t size,
                        BlockState& block, int64_t& offset, ResolvedSpace& where,
                        uint8_t symbol = ptx::kNoSharedSymbol);

    uint8_t* resolve(ptx::Space space, uint64_t addr, uint32_t size, bool write, const AccessSite& site,
                     BlockState& block, ResolvedSpace& where)
    {
        // Fast path: an aligned global access inside the last allocation hit.
        if ((space == ptx::Space::Global || space == ptx::Space::Generic) && addr >= cachedBase_ &&
            addr + size <= cachedEnd_ && (addr & (size - 1)) == 0) {
            where = ResolvedSpace::Global;
            return reinterpret_cast<uint8_t*>(addr);
        }
        return resolveSlow(space, addr, size, write, site, block, where);
    }

    // False unless the global range [addr, addr + size) lies in one allocation; then `record` is the
    // initcheck's record of it (exec/memory/written_bytes.hpp; null: not checked) and `base` its address.
    bool writtenBytes(uint64_t addr, uint64_t size, WrittenBytes*& record, uint64_t& base)
    {
        if (!cachedAllocationHolds(addr, addr + size))
            return false;
        record = cachedWritten_;
        base = cachedBase_;
        return true;
    }

private:
    uint8_t* resolveSlow(ptx::Space space, uint64_t addr, uint32_t size, bool write, const AccessSite& site,
                         BlockState& block, ResolvedSpace& where);
    uint8_t* global(uint64_t addr, uint32_t size, bool write, const AccessSite& site);
    // One-entry cache of the last allocation hit, valid during one launch.
    bool cachedAllocationHolds(uint64_t begin, uint64_t end);
    const uint8_t* params_;
    uint32_t paramBytes_;
    uintptr_t cachedBase_ = 1;
    uintptr_t cachedEnd_ = 0;
    WrittenBytes* cachedWritten_ = nullptr;
};

[[noreturn]] void throwAccessFault(cudaError_t error, const char* space, bool write, uint32_t size, uint64_t addr,
                                   const std::string& why, const AccessSite& site);

// The initcheck's fault: `size` bytes read at `addr`, of which the byte at `unwritten` was never
// written.
[[noreturn]] void throwUninitializedRead(uint32_t size, uint64_t addr, uint64_t unwritten, const AccessSite& site);

std::string describeThread(const AccessSite& site);

// "0x7f3a5c001000": an address as the fault messages write it.
std::string hexAddress(uint64_t v);

}  // namespace cudasim
