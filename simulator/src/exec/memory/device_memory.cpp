#include "exec/memory/device_memory.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <utility>

#include <sys/mman.h>
#include <unistd.h>

#include "support/host_memory.hpp"

namespace cudasim {
namespace {
constexpr uint64_t kAllocationAlignment = 512;  // cudaMalloc guarantees 256 B; a GPU gives textureAlignment, 512
constexpr size_t kFreedHistory = 4096;
// From this size on an allocation is mapped: its pages (zeros) cost memory only once written (a
// huge page of 2 MiB where the kernel gives them), so a kernel may read a buffer of 2^31 ints that
// is mostly zeros on a machine with less memory.
constexpr uint64_t kMappedFrom = uint64_t{256} << 20;

uint64_t rounded_size(uint64_t size)
{
    return (std::max<uint64_t>(size, 1) + kAllocationAlignment - 1) / kAllocationAlignment * kAllocationAlignment;
}

void free_allocation(const Allocation& a)
{
    if (a.mapped)
        unmap_pages(reinterpret_cast<void*>(a.base), rounded_size(a.size));
    else
        std::free(reinterpret_cast<void*>(a.base));
}
}  // namespace

DeviceMemory& DeviceMemory::instance()
{
    // Never destroyed: a program's own static objects may still free device memory at exit, and
    // what is left stays reachable (as a GPU's memory lives until the process ends).
    static DeviceMemory& memory = *new DeviceMemory;
    return memory;
}

void* DeviceMemory::allocate(uint64_t size, bool module_variable, const std::string& name)
{
    const uint64_t rounded = rounded_size(size);
    const bool mapped = rounded >= kMappedFrom;
    void* p = mapped ? map_zero_pages(rounded) : std::aligned_alloc(kAllocationAlignment, rounded);
    if (!p)
        return nullptr;
    if (!mapped)
        std::memset(p, 0, rounded);
    std::lock_guard lock(mutex_);
    uintptr_t base = reinterpret_cast<uintptr_t>(p);
    // The initcheck watches cudaMalloc's memory; module variables start with their initialisers,
    // and an allocation mapped on first touch is too large for a bit per byte.
    auto written = module_variable || mapped ? nullptr : std::make_shared<WrittenBytes>(size);
    live_[base] = Allocation{base,
                             size,
                             module_variable,
                             name,
                             mapped,
                             std::make_shared<SectorFootprint>(base, rounded),
                             std::move(written)};
    bytes_in_use_ += size;
    return p;
}

bool DeviceMemory::release(void* p)
{
    std::lock_guard lock(mutex_);
    auto it = live_.find(reinterpret_cast<uintptr_t>(p));
    if (it == live_.end() || it->second.module_variable)
        return false;
    bytes_in_use_ -= it->second.size;
    if (freed_.size() == kFreedHistory)
        freed_.erase(freed_.begin());
    freed_.push_back(it->second);
    freed_.back().footprint.reset();
    free_allocation(it->second);
    live_.erase(it);
    return true;
}

void DeviceMemory::release_all()
{
    std::lock_guard lock(mutex_);
    for (auto it = live_.begin(); it != live_.end();) {
        if (it->second.module_variable) {
            ++it;
            continue;
        }
        bytes_in_use_ -= it->second.size;
        free_allocation(it->second);
        it = live_.erase(it);
    }
    freed_.clear();
}

const Allocation* DeviceMemory::find(uintptr_t addr) const
{
    auto it = live_.upper_bound(addr);
    if (it == live_.begin())
        return nullptr;
    --it;
    const Allocation& a = it->second;
    return addr < a.base + a.size ? &a : nullptr;
}

const Allocation* DeviceMemory::find_freed(uintptr_t addr) const
{
    for (auto it = freed_.rbegin(); it != freed_.rend(); ++it)
        if (addr >= it->base && addr < it->base + it->size)
            return &*it;
    return nullptr;
}

const Allocation* DeviceMemory::nearest_below(uintptr_t addr) const
{
    auto it = live_.upper_bound(addr);
    if (it == live_.begin())
        return nullptr;
    return &std::prev(it)->second;
}

const Allocation* DeviceMemory::nearest_above(uintptr_t addr) const
{
    auto it = live_.upper_bound(addr);
    return it == live_.end() ? nullptr : &it->second;
}

uint64_t DeviceMemory::bytes_in_use() const
{
    std::lock_guard lock(mutex_);
    return bytes_in_use_;
}

void DeviceMemory::fill(void* p, int value, uint64_t count)
{
    auto* begin = static_cast<unsigned char*>(p);
    const Allocation* a = nullptr;
    {
        std::lock_guard lock(mutex_);
        a = find(reinterpret_cast<uintptr_t>(p));
    }
    if (a && a->written)
        a->written->mark(reinterpret_cast<uintptr_t>(p) - a->base, count);
    if (value == 0 && a && a->mapped) {
        // Whole pages back to the zero page (MADV_DONTNEED on a private anonymous mapping reads as
        // zeros afterwards); only the partial pages at either end are written.
        const auto page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
        const uintptr_t first = (reinterpret_cast<uintptr_t>(begin) + page - 1) / page * page;
        const uintptr_t last = (reinterpret_cast<uintptr_t>(begin) + count) / page * page;
        if (first < last && madvise(reinterpret_cast<void*>(first), last - first, MADV_DONTNEED) == 0) {
            std::memset(begin, 0, first - reinterpret_cast<uintptr_t>(begin));
            std::memset(reinterpret_cast<void*>(last), 0, reinterpret_cast<uintptr_t>(begin) + count - last);
            return;
        }
    }
    std::memset(begin, value, count);
}

void DeviceMemory::mark_written(const void* p, uint64_t count)
{
    std::lock_guard lock(mutex_);
    const uintptr_t addr = reinterpret_cast<uintptr_t>(p);
    if (const Allocation* a = find(addr); a && a->written)
        a->written->mark(addr - a->base, count);
}

bool DeviceMemory::contains(const void* p, uint64_t size) const
{
    std::lock_guard lock(mutex_);
    uintptr_t addr = reinterpret_cast<uintptr_t>(p);
    const Allocation* a = find(addr);
    return a && addr + size <= a->base + a->size;
}

}  // namespace cudasim
