// "Device" memory is ordinary host memory; this registry remembers which
// ranges are device allocations so that kernels and memcpy can be checked.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "exec/memory/written_bytes.hpp"
#include "exec/observers/sector_footprint.hpp"

namespace cudasim {

struct Allocation {
    uintptr_t base = 0;
    uint64_t size = 0;
    bool module_variable = false;                // a __device__/__constant__ variable
    std::string name;                            // variable name, empty for cudaMalloc
    bool mapped = false;                         // pages mapped on first touch (a large cudaMalloc), not malloc'ed
    std::shared_ptr<SectorFootprint> footprint;  // sectors the current launch touched
    std::shared_ptr<WrittenBytes> written;       // initcheck; null: not checked (mapped, module variable)
};

class DeviceMemory {
public:
    static DeviceMemory& instance();

    void* allocate(uint64_t size, bool module_variable = false, const std::string& name = {});
    // Returns false if p is not the base of a live cudaMalloc allocation.
    bool release(void* p);
    // Frees every cudaMalloc allocation (cudaDeviceReset).
    void release_all();

    // The live allocation containing addr, or nullptr. Kernels call this
    // without locking: allocations never change while a launch runs.
    const Allocation* find(uintptr_t addr) const;
    // The most recent freed allocation containing addr, or nullptr.
    const Allocation* find_freed(uintptr_t addr) const;
    // The live allocation nearest below addr (for fault messages).
    const Allocation* nearest_below(uintptr_t addr) const;
    // The live allocation nearest above addr (for fault messages).
    const Allocation* nearest_above(uintptr_t addr) const;

    uint64_t bytes_in_use() const;

    // cudaMemset's work: `count` bytes of `value` at p, inside one live allocation. Zeros over whole
    // pages of a mapped allocation drop those pages instead of writing them, so that a cleared
    // multi-gigabyte buffer costs no memory until something else is written there.
    void fill(void* p, int value, uint64_t count);

    // A copy or memset from the host wrote [p, p+count) (initcheck); p lies in a live allocation.
    void mark_written(const void* p, uint64_t count);

    // True if [p, p+size) lies inside one live allocation.
    bool contains(const void* p, uint64_t size) const;

private:
    mutable std::mutex mutex_;
    std::map<uintptr_t, Allocation> live_;
    std::vector<Allocation> freed_;
    uint64_t bytes_in_use_ = 0;
};

}  // namespace cudasim
