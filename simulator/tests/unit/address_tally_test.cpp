// AddressTally counts updates per address in an array for the words of one window and in an
// open-addressing table that grows as other addresses arrive: its hottest address must have the
// count a std::map of the same updates gives, through growth and merges, for clustered addresses
// (a histogram's bins) and scattered ones, whichever comes first.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <map>
#include <random>
#include <utility>

#include "exec/observers/address_tally.hpp"

using namespace cudasim;

namespace {

uint64_t hottest_of(const std::map<uint64_t, uint64_t>& counts)
{
    uint64_t most = 0;
    for (const auto& [address, updates] : counts)
        most = std::max(most, updates);
    return most;
}

}  // namespace

TEST_CASE("an address tally agrees with a map through growth and merges")
{
    std::mt19937_64 random(20261129);
    AddressTally first, second;
    std::map<uint64_t, uint64_t> expected;
    CHECK(first.hottest() == 0);
    for (int i = 0; i < 50000; ++i) {
        // Half the updates go to 256 neighbouring words, half anywhere (address 0 included).
        const uint64_t address = i % 2 ? 0x7f0000001000 + 4 * (random() % 256) : random() % 100000 * 8;
        const uint64_t updates = 1 + random() % 3;
        (i % 3 ? first : second).add(address, updates);
        expected[address] += updates;
    }
    first.merge(second);
    CHECK(first.hottest() == hottest_of(expected));

    // One more update on the hottest address shows up alone.
    const auto hottest = std::max_element(expected.begin(), expected.end(),
                                          [](const auto& a, const auto& b) { return a.second < b.second; });
    first.add(hottest->first, 1000);
    CHECK(first.hottest() == hottest->second + 1000);
}

TEST_CASE("an address tally whose window holds the first updates agrees with a map, merged with one whose does not")
{
    std::mt19937_64 random(20261130);
    AddressTally bins, scattered;
    std::map<uint64_t, uint64_t> expected;
    const auto update = [&](AddressTally& tally, uint64_t address, uint64_t updates) {
        tally.add(address, updates);
        expected[address] += updates;
    };
    // `bins` starts in a histogram's bins (its window); `scattered` far from them. Both then see
    // bins, words just past the window, 2-byte addresses and scattered ones.
    update(bins, 0x7f0000002000, 1);
    update(scattered, 0x100000, 1);
    for (int i = 0; i < 40000; ++i) {
        uint64_t address = 0;
        switch (i % 4) {
        case 0:
            address = 0x7f0000002000 + 4 * (random() % 2048);  // the window's words
            break;
        case 1:
            address = 0x7f0000004000 + 4 * (random() % 64);  // just past it
            break;
        case 2:
            address = 0x7f0000002002 + 4 * (random() % 64);  // 16-bit atomics in it
            break;
        default:
            address = random() % 100000 * 8;
        }
        update(i % 3 ? bins : scattered, address, 1 + random() % 3);
    }
    AddressTally merged;  // its window is the first merged address's: `scattered`'s
    merged.merge(scattered);
    merged.merge(bins);
    CHECK(merged.hottest() == hottest_of(expected));
    scattered.merge(bins);
    CHECK(scattered.hottest() == hottest_of(expected));
    // An address of each kind raised above all others shows up: in the window, past it, 2-byte.
    uint64_t raise = 0;
    for (const uint64_t address : {uint64_t{0x7f0000002ffc}, uint64_t{0x7f0000004004}, uint64_t{0x7f0000002006}}) {
        raise += 100000;
        merged.add(address, raise);
        expected[address] += raise;
        CHECK(merged.hottest() == expected[address]);
    }
}

TEST_CASE("an address tally's updates of a warp's lanes agree with a map, the first warp's lanes opening its window")
{
    std::mt19937_64 random(20261131);
    AddressTally tally;
    std::map<uint64_t, uint64_t> expected;
    tally.add_lanes(nullptr, 0);  // no lanes: nothing read, nothing counted
    CHECK(tally.hottest() == 0);
    for (int warp = 0; warp < 4000; ++warp) {
        uint64_t addresses[32];
        for (uint64_t& address : addresses) {
            switch (random() % 4) {
            case 0:
                address = 0x7f0000002000 + 4 * (random() % 64);  // the bins
                break;
            case 1:
                address = 0x7f0000001ffc - 4 * (random() % 1024);  // just below them
                break;
            case 2:
                address = 0x7f0000002002 + 4 * (random() % 64);  // 2-byte atomics among them
                break;
            default:
                address = random() % 100000 * 8;
            }
        }
        if (warp == 0)
            addresses[5] = 0x7f0000002010;  // the first lane of the first warp: its window holds the bins
        const auto lanes = static_cast<uint32_t>(warp == 0 ? 0xffffffe0u : random());
        tally.add_lanes(addresses, lanes);
        for (int l = 0; l < 32; ++l)
            if ((lanes >> l) & 1)
                ++expected[addresses[l]];
    }
    CHECK(tally.hottest() == hottest_of(expected));
    CHECK(tally.hottest() > 100);  // a bin's count, in the window

    // Then a word below the bins, in the table, becomes the hottest.
    uint64_t below[32];
    std::fill(std::begin(below), std::end(below), 0x7f0000001ff0);
    for (int warp = 0; warp < 40; ++warp)
        tally.add_lanes(below, 0xffffffffu);
    expected[0x7f0000001ff0] += 40 * 32;
    CHECK(tally.hottest() == hottest_of(expected));
    CHECK(tally.hottest() == expected[0x7f0000001ff0]);
}

TEST_CASE("an address tally's updates of a warp's line of words agree with a map, in its window, across its ends and "
          "outside it")
{
    std::mt19937_64 random(20261132);
    AddressTally tally;
    std::map<uint64_t, uint64_t> expected;
    const auto add_line = [&](uint64_t first) {
        uint64_t addresses[32];
        for (uint64_t l = 0; l < 32; ++l)
            addresses[l] = first + 4 * l;
        tally.add_line_of_words(addresses);
        for (const uint64_t address : addresses)
            ++expected[address];
    };
    const uint64_t window = 0x7f0000002000;  // the first line opens a window of 2048 words here
    add_line(window + 64);
    for (int warp = 0; warp < 3000; ++warp) {
        switch (random() % 5) {
        case 0:
            add_line(window + 4 * (random() % (2048 - 32)));  // inside the window
            break;
        case 1:
            add_line(window + 8192 - 4 * (random() % 32));  // across its end: lanes in it, lanes past it
            break;
        case 2:
            add_line(window - 4 * (random() % 64));  // across its start, or wholly below it
            break;
        case 3:
            add_line(window + 2 + 4 * (random() % 64));  // 2-byte aligned: not the window's words
            break;
        default:
            add_line(random() % 100000 * 8);
        }
        if (warp % 500 == 0)
            CHECK(tally.hottest() == hottest_of(expected));
    }
    CHECK(tally.hottest() == hottest_of(expected));
    // Lines across the window's end make one of their words the hottest.
    for (int warp = 0; warp < 2000; ++warp)
        add_line(window + 8192 - 4 * 16);
    uint64_t across_end = 0;
    for (uint64_t l = 0; l < 32; ++l)
        across_end = std::max(across_end, expected[window + 8192 - 4 * 16 + 4 * l]);
    CHECK(tally.hottest() == hottest_of(expected));
    CHECK(tally.hottest() == across_end);
}
