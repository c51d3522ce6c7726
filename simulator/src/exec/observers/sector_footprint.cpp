#include "exec/observers/sector_footprint.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdlib>
#include <new>

#include "exec/scheduling/device_model.hpp"
#include "support/host_memory.hpp"

namespace cudasim {
namespace {

std::atomic<uint64_t> g_epoch{0};

constexpr uint64_t kMappedRecordFrom = uint64_t{8} << 20;

// Launch numbers as stored per sector: 1..255, never 0 (untouched).
uint8_t stamp(uint64_t epoch)
{
    return static_cast<uint8_t>(1 + epoch % 255);
}

// How many of the eight bytes of `word` equal those of `pattern`: a byte of their xor is zero
// exactly where its high bit survives this (no carry crosses a byte, as the high bits are masked).
int bytes_equal(uint64_t word, uint64_t pattern)
{
    constexpr uint64_t kLow7 = 0x7f7f7f7f7f7f7f7full;
    const uint64_t x = word ^ pattern;
    const uint64_t zero_high_bits = ~(((x & kLow7) + kLow7) | x | kLow7);
    return std::popcount(zero_high_bits);
}

}  // namespace

SectorFootprint::SectorFootprint(uintptr_t base, uint64_t bytes) : base_(base & ~uintptr_t{31})
{
    const uint64_t sectors = (bytes + 31) / 32 + 2;
    record_bytes_ = (sectors + 7) / 8 * sizeof(uint64_t);
    // A large record (268 MB for 8.6 GB of device memory) is mapped like the memory it describes,
    // in huge pages: written a byte per sector, it would cost a page fault per 4 KiB otherwise.
    mapped_ = record_bytes_ >= kMappedRecordFrom;
    launch_of_ = static_cast<uint64_t*>(mapped_ ? map_zero_pages(record_bytes_) : std::calloc(record_bytes_, 1));
    if (!launch_of_)
        throw std::bad_alloc();
}

SectorFootprint::~SectorFootprint()
{
    if (mapped_)
        unmap_pages(launch_of_, record_bytes_);
    else
        std::free(launch_of_);
}

SectorTouch SectorFootprint::touch(uint64_t address, uint64_t epoch)
{
    const uint64_t index = (address - base_) >> 5;
    const int shift = static_cast<int>(index % 8) * 8;
    const uint64_t now = stamp(epoch);
    std::atomic_ref<uint64_t> record = word(index);
    uint64_t before = record.load(std::memory_order_relaxed);
    do {
        if ((before >> shift & 0xff) == now)
            return SectorTouch::Again;  // this launch touched it already, perhaps on another worker
    } while (!record.compare_exchange_weak(before, (before & ~(uint64_t{0xff} << shift)) | now << shift,
                                           std::memory_order_relaxed));
    return epoch > 0 && (before >> shift & 0xff) == stamp(epoch - 1) ? SectorTouch::L2 : SectorTouch::Dram;
}

// The sectors of one word of the record that `mask` selects (0xff per sector) touched by launch
// `epoch`, in one update of the word.
RunTouches SectorFootprint::touch_word(uint64_t index, uint64_t mask, uint64_t epoch, bool alone)
{
    const uint64_t now = stamp(epoch) * 0x0101010101010101ull;
    const uint64_t previous = epoch > 0 ? stamp(epoch - 1) * 0x0101010101010101ull : 0;
    std::atomic_ref<uint64_t> record = word(index);
    uint64_t before = record.load(std::memory_order_relaxed);
    uint64_t after = (before & ~mask) | (now & mask);
    if (alone && after != before)
        record.store(after, std::memory_order_relaxed);
    else
        while (after != before && !record.compare_exchange_weak(before, after, std::memory_order_relaxed))
            after = (before & ~mask) | (now & mask);
    // Of those sectors: the ones this launch touched already, those still in L2 from the previous
    // launch, and the rest from DRAM (bytes outside the mask compare equal, and are taken off).
    const int sectors = std::popcount(mask) / 8;
    const int outside = 8 - sectors;
    const int again = bytes_equal(before | ~mask, now | ~mask) - outside;
    const int in_l2 = previous != 0 ? bytes_equal(before | ~mask, previous | ~mask) - outside : 0;
    return {static_cast<uint32_t>(sectors - again - in_l2), in_l2 > 0};
}

RunTouches SectorFootprint::touch_run(uint64_t address, uint32_t count, uint64_t epoch, bool alone)
{
    RunTouches touched;
    uint64_t index = (address - base_) >> 5;
    while (count > 0) {
        // The run's sectors in this word of the record, all at once.
        const int first = static_cast<int>(index % 8);
        const int sectors = std::min<int>(8 - first, static_cast<int>(std::min<uint32_t>(count, 8)));
        const uint64_t mask = (sectors == 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * sectors)) - 1) << (8 * first);
        touched += touch_word(index, mask, epoch, alone);
        index += static_cast<uint64_t>(sectors);
        count -= static_cast<uint32_t>(sectors);
    }
    return touched;
}

RunTouches SectorFootprint::touch_sorted(const uint64_t* sectors, int count, uint64_t epoch, bool alone)
{
    RunTouches touched;
    for (int i = 0; i < count;) {
        // The sectors that share this one's word of the record, at once.
        const uint64_t index = sectors[i] - (base_ >> 5);
        uint64_t mask = 0;
        for (; i < count && (sectors[i] - (base_ >> 5)) / 8 == index / 8; ++i)
            mask |= uint64_t{0xff} << (8 * ((sectors[i] - (base_ >> 5)) % 8));
        touched += touch_word(index, mask, epoch, alone);
    }
    return touched;
}

uint64_t next_launch_epoch()
{
    return ++g_epoch;
}

void stream_through_l2(uint64_t bytes)
{
    if (bytes >= device_model::kL2Bytes)
        g_epoch += 2;  // the next launch's "previous" is none
}

}  // namespace cudasim
