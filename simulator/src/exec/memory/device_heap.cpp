#include "exec/memory/device_heap.hpp"

#include <iterator>
#include <utility>

#include "exec/memory/device_memory.hpp"

namespace cudasim {
namespace {

constexpr uint64_t kAlignment = 16;  // what malloc in a kernel guarantees

uint64_t aligned(uint64_t size)
{
    return (size + kAlignment - 1) / kAlignment * kAlignment;
}

}  // namespace

DeviceHeap::DeviceHeap(uint64_t bytes) : bytes_(aligned(bytes))
{
    if (bytes_ == 0)
        return;
    base_ = reinterpret_cast<uint64_t>(DeviceMemory::instance().allocate(bytes_));
    if (base_ != 0)
        free_[base_] = bytes_;
}

DeviceHeap::~DeviceHeap()
{
    if (base_ != 0)
        DeviceMemory::instance().release(reinterpret_cast<void*>(base_));
}

uint64_t DeviceHeap::allocate(uint64_t size)
{
    const uint64_t wanted = aligned(size == 0 ? 1 : size);
    std::lock_guard lock(mutex_);
    for (auto it = free_.begin(); it != free_.end(); ++it) {
        if (it->second < wanted)
            continue;
        const uint64_t start = it->first;
        const uint64_t left = it->second - wanted;
        free_.erase(it);
        if (left != 0)
            free_[start + wanted] = left;
        used_[start] = wanted;
        return start;
    }
    return 0;
}

bool DeviceHeap::release(uint64_t address)
{
    if (address == 0)
        return true;
    std::lock_guard lock(mutex_);
    const auto used = used_.find(address);
    if (used == used_.end())
        return false;
    uint64_t start = used->first;
    uint64_t size = used->second;
    used_.erase(used);
    // Merge with the free neighbours on both sides.
    auto next = free_.lower_bound(start);
    if (next != free_.end() && start + size == next->first) {
        size += next->second;
        next = free_.erase(next);
    }
    if (next != free_.begin()) {
        const auto before = std::prev(next);
        if (before->first + before->second == start) {
            start = before->first;
            size += before->second;
            free_.erase(before);
        }
    }
    free_[start] = size;
    return true;
}

}  // namespace cudasim
