#include "runtime/sector_footprint.hpp"

#include <cstdlib>
#include <cstring>
#include <new>

namespace cudasim {

SectorFootprint::SectorFootprint(uintptr_t base, uint64_t bytes)
    : base_(base & ~uintptr_t{31}), words_((bytes + 31) / 32 / 64 + 2) {
  bits_ = static_cast<std::atomic<uint64_t>*>(std::calloc(words_, sizeof(std::atomic<uint64_t>)));
  if (!bits_) throw std::bad_alloc();
}

SectorFootprint::~SectorFootprint() { std::free(bits_); }

bool SectorFootprint::touch(uint64_t address, uint64_t epoch) {
  if (epoch_.load(std::memory_order_acquire) != epoch) {
    std::lock_guard lock(clearing_);
    if (epoch_.load(std::memory_order_relaxed) != epoch) {
      std::memset(static_cast<void*>(bits_), 0, words_ * sizeof(std::atomic<uint64_t>));
      epoch_.store(epoch, std::memory_order_release);
    }
  }
  uint64_t sector = (address - base_) >> 5;
  uint64_t bit = uint64_t{1} << (sector & 63);
  std::atomic<uint64_t>& word = bits_[sector >> 6];
  if (word.load(std::memory_order_relaxed) & bit) return false;
  return (word.fetch_or(bit, std::memory_order_relaxed) & bit) == 0;
}

uint64_t nextLaunchEpoch() {
  static std::atomic<uint64_t> epoch{0};
  return ++epoch;
}

}  // namespace cudasim
