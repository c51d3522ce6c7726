// Which 32-byte sectors of one allocation recent kernel launches touched, for the timing model:
// a sector the current launch touches first is a DRAM transfer, unless the previous launch
// touched it (then it is still in L2); later touches hit the caches. One byte per sector (1/32 of
// the allocation) holds the number of the launch that touched it last.
#pragma once

#include <atomic>
#include <cstdint>

namespace cudasim {

enum class SectorTouch { Dram, L2, Again };

// Where the sectors of one touched run came from.
struct RunTouches {
    uint32_t dram = 0;  // sectors the launch brings from DRAM
    bool l2 = false;    // some sector was still in L2 from the previous launch
    RunTouches& operator+=(const RunTouches& other)
    {
        dram += other.dram;
        l2 |= other.l2;
        return *this;
    }
};

class SectorFootprint {
public:
    SectorFootprint(uintptr_t base, uint64_t bytes);
    ~SectorFootprint();
    SectorFootprint(const SectorFootprint&) = delete;
    SectorFootprint& operator=(const SectorFootprint&) = delete;

    // Records that launch `epoch` touched the sector holding `address`; says where it came from.
    SectorTouch touch(uint64_t address, uint64_t epoch);
    // The same for `count` consecutive sectors from the one holding `address` (a coalesced
    // request's): the sectors of each word of the record at once. `alone`: no other worker
    // touches the record meanwhile (a launch one worker runs), so a plain store updates it.
    RunTouches touch_run(uint64_t address, uint32_t count, uint64_t epoch, bool alone);
    // The same for `count` sectors in ascending order (repeats allowed), `sectors` their numbers
    // (address / 32), each in this allocation: those that share a word of the record at once.
    RunTouches touch_sorted(const uint64_t* sectors, int count, uint64_t epoch, bool alone);

private:
    // The sectors of the record's word that holds sector `index`, those `mask` selects (0xff each).
    RunTouches touch_word(uint64_t index, uint64_t mask, uint64_t epoch, bool alone);
    // The record's word holding sector `index`, updated atomically: workers touch sectors at once.
    std::atomic_ref<uint64_t> word(uint64_t index) const { return std::atomic_ref<uint64_t>(launch_of_[index / 8]); }

    uintptr_t base_;
    uint64_t* launch_of_;  // a byte per sector, zeros: untouched pages cost no memory
    uint64_t record_bytes_;
    bool mapped_;  // launch_of_ from map_zero_pages, not calloc
};

// A new number for each kernel launch.
uint64_t next_launch_epoch();
// A device operation (memset, copy) of `bytes`: one that streams more than L2 holds, such as a
// benchmark's cache flush, leaves none of the previous launch's sectors in L2.
void stream_through_l2(uint64_t bytes);

}  // namespace cudasim
