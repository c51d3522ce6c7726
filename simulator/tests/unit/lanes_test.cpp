// The interpreter's lane helpers (exec/scheduling/lanes.hpp): a predicate register's lanes gathered
// into a lane mask, and a blend of values under a mask.
#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "exec/scheduling/lanes.hpp"
#include "exec/scheduling/warp.hpp"

using namespace cudasim;

TEST_CASE("lanes: predicate_mask takes bit 0 of every lane, whatever the other bits hold")
{
    std::mt19937_64 random(5);
    static const uint64_t odd_values[] = {1, 3, 0xff, 0x8001, 0x10001, 0x100000001, ~uint64_t{0}};
    static const uint64_t even_values[] = {0, 2, 0x100, 0x8000, 0x10000, 0x100000000, ~uint64_t{1}};
    for (int round = 0; round < 200; ++round) {
        std::vector<uint64_t> registers(2 * kWarpSize);
        Warp w;
        w.regs = registers.data();
        const auto expected = static_cast<uint32_t>(random());
        for (int l = 0; l < kWarpSize; ++l) {
            const bool set = (expected >> l) & 1;
            // Plain 0 and 1 (what setp writes) in half the rounds, other words with the same bit 0 in the rest.
            const uint64_t v =
                round % 2 == 0 ? (set ? 1 : 0) : (set ? odd_values[random() % 7] : even_values[random() % 7]);
            w.reg(1)[l] = v;
        }
        CHECK(predicate_mask(w, 1) == expected);
    }
}

TEST_CASE("lanes: blend_lanes writes the lanes of the mask and keeps the others")
{
    std::mt19937_64 random(6);
    for (int round = 0; round < 50; ++round) {
        uint64_t destination[kWarpSize], values[kWarpSize], before[kWarpSize];
        for (int l = 0; l < kWarpSize; ++l) {
            destination[l] = before[l] = random();
            values[l] = random();
        }
        const auto mask = static_cast<uint32_t>(random());
        blend_lanes(destination, values, mask);
        for (int l = 0; l < kWarpSize; ++l)
            CHECK(destination[l] == (((mask >> l) & 1) ? values[l] : before[l]));
    }
}
