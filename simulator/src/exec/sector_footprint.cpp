#include "exec/sector_footprint.hpp"

#include <atomic>
#include <cstdlib>
#include <new>

#include "exec/device_model.hpp"

namespace cudasim {
namespace {

std::atomic<uint64_t> g_epoch{0};

// Launch numbers as stored per sector: 1..255, never 0 (untouched).
uint8_t stamp(uint64_t epoch)
{
    return static_cast<uint8_t>(1 + epoch % 255);
}

}  // namespace

SectorFootprint::SectorFootprint(uintptr_t base, uint64_t bytes) : base_(base & ~uintptr_t{31})
{
    launchOf_ = static_cast<uint8_t*>(std::calloc((bytes + 31) / 32 + 2, 1));
    if (!launchOf_)
        throw std::bad_alloc();
}

SectorFootprint::~SectorFootprint()
{
    std::free(launchOf_);
}

SectorTouch SectorFootprint::touch(uint64_t address, uint64_t epoch)
{
    std::atomic_ref<uint8_t> last(launchOf_[(address - base_) >> 5]);
    const uint8_t now = stamp(epoch);
    uint8_t before = last.load(std::memory_order_relaxed);
    if (before == now)
        return SectorTouch::Again;
    before = last.exchange(now, std::memory_order_relaxed);
    if (before == now)
        return SectorTouch::Again;  // another worker was first
    return epoch > 0 && before == stamp(epoch - 1) ? SectorTouch::L2 : SectorTouch::Dram;
}

uint64_t nextLaunchEpoch()
{
    return ++g_epoch;
}

void streamThroughL2(uint64_t bytes)
{
    if (bytes >= device_model::kL2Bytes)
        g_epoch += 2;  // the next launch's "previous" is none
}

}  // namespace cudasim
