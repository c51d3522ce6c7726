// SectorFootprint records a request's sectors a word of the record at a time, with atomic updates
// or (one worker) plain stores: for a coalesced run of sectors (touch_run) and for a warp's
// scattered ones (touch_sorted) it must say what touching them one by one says, for every mix of
// sectors this launch touched already, the previous launch left in L2, and older or untouched ones.
#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "exec/observers/sector_footprint.hpp"

using namespace cudasim;

namespace {

constexpr uint64_t kBase = 0x10000;

// What touching `sectors` (numbers, address / 32, ascending) one at a time says, repeats skipped.
RunTouches one_by_one(SectorFootprint& singles, const std::vector<uint64_t>& sectors, uint64_t epoch)
{
    RunTouches touched;
    for (size_t i = 0; i < sectors.size(); ++i) {
        if (i > 0 && sectors[i] == sectors[i - 1])
            continue;
        const SectorTouch touch = singles.touch(sectors[i] * 32, epoch);
        touched.dram += touch == SectorTouch::Dram ? 1 : 0;
        touched.l2 |= touch == SectorTouch::L2;
    }
    return touched;
}

// 20000 random requests, in launches that change now and then (sometimes skipping one, so that
// nothing is left in L2): `request(random, epoch)` touches one in the footprints under test and
// returns what they said and the sectors it covered.
template <class Request>
void compare_with_one_by_one(uint64_t sectors, uint64_t seed, Request request)
{
    SectorFootprint singles(kBase, sectors * 32);
    std::mt19937_64 random(seed);
    uint64_t epoch = 1;
    int checked_l2 = 0;
    int checked_dram = 0;
    for (int i = 0; i < 20000; ++i) {
        if (random() % 64 == 0)
            epoch += 1 + random() % 3;
        const auto [touched, covered] = request(random, epoch);
        const RunTouches expected = one_by_one(singles, covered, epoch);
        CAPTURE(i);
        REQUIRE(touched.dram == expected.dram);
        REQUIRE(touched.l2 == expected.l2);
        checked_l2 += touched.l2 ? 1 : 0;
        checked_dram += touched.dram > 0 ? 1 : 0;
    }
    // The random requests met every kind of sector.
    CHECK(checked_l2 > 100);
    CHECK(checked_dram > 100);
}

}  // namespace

TEST_CASE("a run of sectors counts as its sectors touched one by one")
{
    constexpr uint64_t kSectors = 512;
    SectorFootprint runs(kBase, kSectors * 32);
    SectorFootprint runs_alone(kBase, kSectors * 32);  // updated with plain stores, as one worker does
    compare_with_one_by_one(kSectors, 20261127, [&](std::mt19937_64& random, uint64_t epoch) {
        const uint64_t first = random() % (kSectors - 40);
        const uint32_t count = 1 + static_cast<uint32_t>(random() % 40);
        const RunTouches touched = runs.touch_run(kBase + first * 32, count, epoch, false);
        const RunTouches alone = runs_alone.touch_run(kBase + first * 32, count, epoch, true);
        REQUIRE(alone.dram == touched.dram);
        REQUIRE(alone.l2 == touched.l2);
        std::vector<uint64_t> covered;
        for (uint64_t s = first; s < first + count; ++s)
            covered.push_back(kBase / 32 + s);
        return std::pair{touched, covered};
    });
}

TEST_CASE("a warp's scattered sectors count as those sectors touched one by one")
{
    constexpr uint64_t kSectors = 1024;  // the farthest lane: 63 + 31 * 15 sectors from the base
    SectorFootprint grouped(kBase, kSectors * 32);
    int request = 0;
    compare_with_one_by_one(kSectors, 20261129, [&](std::mt19937_64& random, uint64_t epoch) {
        // A warp's lanes at a random stride from a random start: sectors in ascending order, some
        // repeated (lanes in one sector), some sharing a word of the record.
        const uint64_t first = random() % 64;
        const uint64_t stride = random() % 16;
        const int lanes = 1 + static_cast<int>(random() % 32);
        std::vector<uint64_t> covered;
        for (int lane = 0; lane < lanes; ++lane)
            covered.push_back(kBase / 32 + first + static_cast<uint64_t>(lane) * stride);
        const bool alone = ++request % 2 == 0;
        return std::pair{grouped.touch_sorted(covered.data(), static_cast<int>(covered.size()), epoch, alone), covered};
    });
}
