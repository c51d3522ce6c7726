// SectorFootprint::touch_run counts a coalesced request's sectors a word of the record at a time,
// with atomic updates or (one worker) plain stores: it must say what touching them one by one says,
// for every mix of sectors this launch touched already, the previous launch left in L2, and older
// or untouched ones.
#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "exec/observers/sector_footprint.hpp"

using namespace cudasim;

TEST_CASE("a run of sectors counts as its sectors touched one by one")
{
    constexpr uint64_t kBase = 0x10000;
    constexpr uint64_t kSectors = 512;
    SectorFootprint runs(kBase, kSectors * 32);
    SectorFootprint runs_alone(kBase, kSectors * 32);  // updated with plain stores, as one worker does
    SectorFootprint singles(kBase, kSectors * 32);
    std::mt19937_64 random(20261127);
    uint64_t epoch = 1;
    int checked_l2 = 0;
    int checked_dram = 0;
    for (int request = 0; request < 20000; ++request) {
        if (random() % 64 == 0)
            epoch += 1 + random() % 3;  // a new launch; now and then one in between, so none is in L2
        const uint64_t first = random() % (kSectors - 40);
        const uint32_t count = 1 + static_cast<uint32_t>(random() % 40);
        const RunTouches run = runs.touch_run(kBase + first * 32, count, epoch, false);
        const RunTouches run_alone = runs_alone.touch_run(kBase + first * 32, count, epoch, true);
        RunTouches one_by_one;
        for (uint64_t s = first; s < first + count; ++s) {
            const SectorTouch touch = singles.touch(kBase + s * 32, epoch);
            one_by_one.dram += touch == SectorTouch::Dram ? 1 : 0;
            one_by_one.l2 |= touch == SectorTouch::L2;
        }
        CAPTURE(request);
        REQUIRE(run.dram == one_by_one.dram);
        REQUIRE(run.l2 == one_by_one.l2);
        REQUIRE(run_alone.dram == one_by_one.dram);
        REQUIRE(run_alone.l2 == one_by_one.l2);
        checked_l2 += run.l2 ? 1 : 0;
        checked_dram += run.dram > 0 ? 1 : 0;
    }
    // The random requests met every kind of sector.
    CHECK(checked_l2 > 100);
    CHECK(checked_dram > 100);
}
