#include "runtime/device_memory.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <utility>

namespace cudasim {
namespace {
constexpr uint64_t kAllocationAlignment = 256;  // cudaMalloc guarantees 256 B
constexpr size_t kFreedHistory = 4096;
}  // namespace

DeviceMemory& DeviceMemory::instance() {
  static DeviceMemory memory;
  return memory;
}

void* DeviceMemory::allocate(uint64_t size, bool moduleVariable, const std::string& name) {
  uint64_t rounded = (std::max<uint64_t>(size, 1) + kAllocationAlignment - 1) /
                     kAllocationAlignment * kAllocationAlignment;
  void* p = std::aligned_alloc(kAllocationAlignment, rounded);
  if (!p) return nullptr;
  std::memset(p, 0, rounded);
  std::lock_guard lock(mutex_);
  uintptr_t base = reinterpret_cast<uintptr_t>(p);
  live_[base] = Allocation{base, size, moduleVariable, name, std::make_shared<SectorFootprint>(base, rounded)};
  bytesInUse_ += size;
  return p;
}

bool DeviceMemory::release(void* p) {
  std::lock_guard lock(mutex_);
  auto it = live_.find(reinterpret_cast<uintptr_t>(p));
  if (it == live_.end() || it->second.moduleVariable) return false;
  bytesInUse_ -= it->second.size;
  if (freed_.size() == kFreedHistory) freed_.erase(freed_.begin());
  freed_.push_back(it->second);
  freed_.back().footprint.reset();
  live_.erase(it);
  std::free(p);
  return true;
}

void DeviceMemory::releaseAll() {
  std::lock_guard lock(mutex_);
  for (auto it = live_.begin(); it != live_.end();) {
    if (it->second.moduleVariable) {
      ++it;
      continue;
    }
    bytesInUse_ -= it->second.size;
    std::free(reinterpret_cast<void*>(it->first));
    it = live_.erase(it);
  }
  freed_.clear();
}

const Allocation* DeviceMemory::find(uintptr_t addr) const {
  auto it = live_.upper_bound(addr);
  if (it == live_.begin()) return nullptr;
  --it;
  const Allocation& a = it->second;
  return addr < a.base + a.size ? &a : nullptr;
}

const Allocation* DeviceMemory::findFreed(uintptr_t addr) const {
  for (auto it = freed_.rbegin(); it != freed_.rend(); ++it)
    if (addr >= it->base && addr < it->base + it->size) return &*it;
  return nullptr;
}

const Allocation* DeviceMemory::nearestBelow(uintptr_t addr) const {
  auto it = live_.upper_bound(addr);
  if (it == live_.begin()) return nullptr;
  return &std::prev(it)->second;
}

uint64_t DeviceMemory::bytesInUse() const {
  std::lock_guard lock(mutex_);
  return bytesInUse_;
}

bool DeviceMemory::contains(const void* p, uint64_t size) const {
  std::lock_guard lock(mutex_);
  uintptr_t addr = reinterpret_cast<uintptr_t>(p);
  const Allocation* a = find(addr);
  return a && addr + size <= a->base + a->size;
}

}  // namespace cudasim
