// The device heap that malloc and free in kernels use: one region of device memory, its size set
// by cudaLimitMallocHeapSize (8 MB by default, as on a GPU) before the first kernel that needs it.
// A request that does not fit returns NULL, as on a GPU.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>

namespace cudasim {

class DeviceHeap {
public:
    // A heap of `bytes` bytes, taken from device memory at once (so that accesses to it are
    // checked as device memory).
    explicit DeviceHeap(uint64_t bytes);
    ~DeviceHeap();
    DeviceHeap(const DeviceHeap&) = delete;
    DeviceHeap& operator=(const DeviceHeap&) = delete;

    // The address of `size` fresh bytes, 16-byte aligned; 0 when the heap has no room for them.
    uint64_t allocate(uint64_t size);
    // Gives back what allocate returned; 0 is ignored, as free(NULL) is. Returns false for an
    // address allocate did not return (a double free, a pointer into the middle of a block).
    bool release(uint64_t address);
    uint64_t bytes() const { return bytes_; }

private:
    std::mutex mutex_;
    uint64_t base_ = 0;
    uint64_t bytes_ = 0;
    std::map<uint64_t, uint64_t> free_;  // start -> size, coalesced
    std::map<uint64_t, uint64_t> used_;  // start -> size
};

}  // namespace cudasim
