// AddressTally counts updates per address in an open-addressing table that grows as addresses
// arrive: its hottest address must have the count a std::map of the same updates gives, through
// growth and merges, for clustered addresses (a histogram's bins) and scattered ones.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
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
