// Which 32-byte sectors of one allocation a kernel launch has touched: the first touch of a sector
// is a DRAM transfer in the timing model, later ones hit the caches. One bit per sector (1/256 of
// the allocation), cleared lazily when a new launch first touches the allocation.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>

namespace cudasim {

class SectorFootprint {
 public:
  SectorFootprint(uintptr_t base, uint64_t bytes);
  ~SectorFootprint();
  SectorFootprint(const SectorFootprint&) = delete;
  SectorFootprint& operator=(const SectorFootprint&) = delete;

  // Marks the sector that holds `address` as touched in launch `epoch`; true if it was not yet.
  bool touch(uint64_t address, uint64_t epoch);

 private:
  uintptr_t base_;
  uint64_t words_;
  std::atomic<uint64_t>* bits_;  // calloc'ed: untouched pages cost no memory
  std::atomic<uint64_t> epoch_{0};
  std::mutex clearing_;
};

// A new number for each kernel launch (never 0).
uint64_t nextLaunchEpoch();

}  // namespace cudasim
