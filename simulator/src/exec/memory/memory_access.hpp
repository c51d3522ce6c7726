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
    MemoryAccess(const uint8_t* params, uint32_t param_bytes) : params_(params), param_bytes_(param_bytes) {}

    // Returns the host pointer for `size` bytes at `addr` in `space`, or
    // throws DeviceFault.
    // Whole-warp fast path: if every lane's access of `size` bytes in
    // [lowest, highest + size) is aligned (`address_bits` is the OR of all
    // addresses) and falls in one allocation or in shared memory, returns
    // true and the offset that turns an address into a host pointer.
    // A shared access must also stay within the variable `symbol` names (ptx::Instr::shared_symbol).
    bool translate_range(ptx::Space space, uint64_t lowest, uint64_t highest, uint64_t address_bits, uint32_t size,
                         BlockState& block, int64_t& offset, ResolvedSpace& where,
                         uint8_t symbol = ptx::kNoSharedSymbol);

    uint8_t* resolve(ptx::Space space, uint64_t addr, uint32_t size, bool write, const AccessSite& site,
                     BlockState& block, ResolvedSpace& where)
    {
        // Fast path: an aligned global access inside the last allocation hit.
        if ((space == ptx::Space::Global || space == ptx::Space::Generic) && recent_[0].holds(addr, addr + size) &&
            (addr & (size - 1)) == 0) {
            where = ResolvedSpace::Global;
            return reinterpret_cast<uint8_t*>(addr);
        }
        return resolve_slow(space, addr, size, write, site, block, where);
    }

    // False unless the global range [addr, addr + size) lies in one allocation; then `record` is the
    // initcheck's record of it (exec/memory/written_bytes.hpp; null: not checked) and `base` its address.
    bool written_bytes(uint64_t addr, uint64_t size, WrittenBytes*& record, uint64_t& base)
    {
        if (!cached_allocation_holds(addr, addr + size))
            return false;
        record = recent_[0].written;
        base = recent_[0].base;
        return true;
    }

private:
    uint8_t* resolve_slow(ptx::Space space, uint64_t addr, uint32_t size, bool write, const AccessSite& site,
                          BlockState& block, ResolvedSpace& where);
    uint8_t* global(uint64_t addr, uint32_t size, bool write, const AccessSite& site);
    // Whether [begin, end) lies in one allocation: then that allocation is recent_[0].
    bool cached_allocation_holds(uint64_t begin, uint64_t end)
    {
        return recent_[0].holds(begin, end) || other_allocation_holds(begin, end);
    }
    bool other_allocation_holds(uint64_t begin, uint64_t end);

    // The two allocations hit last, the latest first, valid during one launch: a kernel that reads
    // one buffer and updates another (a histogram's values and bins) alternates between two.
    struct RecentAllocation {
        uintptr_t base = 1;  // none: holds no range
        uintptr_t end = 0;
        WrittenBytes* written = nullptr;
        bool holds(uint64_t from, uint64_t to) const { return from >= base && to <= end; }
    };
    const uint8_t* params_;
    uint32_t param_bytes_;
    RecentAllocation recent_[2];
};

[[noreturn]] void throw_access_fault(cudaError_t error, const char* space, bool write, uint32_t size, uint64_t addr,
                                     const std::string& why, const AccessSite& site);

// The initcheck's fault: `size` bytes read at `addr`, of which the byte at `unwritten` was never
// written.
[[noreturn]] void throw_uninitialized_read(uint32_t size, uint64_t addr, uint64_t unwritten, const AccessSite& site);

std::string describe_thread(const AccessSite& site);

// "0x7f3a5c001000": an address as the fault messages write it.
std::string hex_address(uint64_t v);

}  // namespace cudasim
