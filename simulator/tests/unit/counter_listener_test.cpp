// The counter listener remembers which sectors of a few 2 KiB windows it touched in its launch and
// counts a request within them without reading the footprint's record. Whatever it reads, what it
// counts must be what touching each distinct sector of each request one by one says: the DRAM
// sectors, the sectors per request, and where a load's farthest sector came from, for coalesced,
// partial, strided and scattered requests, near one another and far apart, over launches.
#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <random>
#include <vector>

#include "exec/observers/counter_listener.hpp"
#include "exec/observers/sector_footprint.hpp"
#include "ptx_runner.hpp"

using namespace cudasim;
using namespace cudasim::test;

namespace {

const char* kLoad = R"(
.visible .entry load(.param .u64 p)
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [p];
  ld.global.u32 %r1, [%rd1];
  ret;
}
)";

constexpr uint64_t kBytes = 64 * 1024;  // 32 windows of 64 sectors

// A warp's request: its lanes and their addresses, and the stride MemoryEvent gives a whole warp
// whose lanes step along a line (0 for any other).
struct Request {
    uint32_t lanes = 0;
    uint64_t addresses[kWarpSize] = {};
    int64_t stride = 0;
};

// A random request of 4-byte accesses inside [base, base + bytes): a whole warp along a line,
// some lanes of one, or lanes scattered over a few windows or the whole range.
Request random_lanes(std::mt19937_64& random, uint64_t base, uint64_t bytes)
{
    Request r;
    const int shape = static_cast<int>(random() % 4);
    if (shape == 0) {  // a whole warp along a line, up or down, one sector apart at most
        const int64_t strides[] = {4, 8, 16, 32, -4, -32};
        r.stride = strides[random() % 6];
        r.lanes = 0xffffffffu;
        const uint64_t first = base + 1024 + (random() % ((bytes - 2048) / 4)) * 4;
        for (int l = 0; l < kWarpSize; ++l)
            r.addresses[l] = first + static_cast<uint64_t>(l * r.stride);
        return r;
    }
    r.lanes = static_cast<uint32_t>(random());
    if (random() % 4 == 0)
        r.lanes &= (r.lanes - 1) & static_cast<uint32_t>(random());  // a few lanes
    r.lanes |= 1u << (random() % 32);
    if (shape == 1) {  // some lanes of a line, as a divergent branch leaves them
        const uint64_t stride = uint64_t{4} << (random() % 5);
        const uint64_t first = base + (random() % (bytes / 4 - 31 * 32)) * 4;
        for (int l = 0; l < kWarpSize; ++l)
            r.addresses[l] = first + static_cast<uint64_t>(l) * stride;
        return r;
    }
    // Scattered: over a span of four windows somewhere, or over the whole buffer.
    const uint64_t span = shape == 2 ? 8192 : bytes;
    const uint64_t from = base + (random() % (bytes - span + 1)) / 4 * 4;
    for (int l = 0; l < kWarpSize; ++l)
        r.addresses[l] = from + (random() % (span / 4)) * 4;
    return r;
}

// A random request inside the buffer from `buffer`, of the kinds above. Half of them fall within
// 8 KiB from 4 KiB below where the one before started (`near`), as a kernel's requests do: they
// straddle the edges of windows touched already, where a sector of the next window must not pass
// for one of this window.
Request random_request(std::mt19937_64& random, uint64_t buffer, uint64_t& near)
{
    const bool nearby = random() % 2 == 0;
    const uint64_t bytes = nearby ? 8192 : kBytes;
    const uint64_t base =
        nearby ? std::clamp<uint64_t>(near + random() % 4096, buffer + 4096, buffer + kBytes - bytes + 4096) - 4096
               : buffer;
    const Request r = random_lanes(random, base, bytes);
    near = r.addresses[std::countr_zero(r.lanes)];
    return r;
}

}  // namespace

TEST_CASE("a launch's requests count as their distinct sectors touched one by one")
{
    const ptx::Module module = parse_ptx(kLoad);
    const ptx::Kernel& kernel = module.kernels.at(0);
    const auto load = std::find_if(kernel.code.begin(), kernel.code.end(), [](const ptx::Instr& in) {
        return in.op == ptx::Op::Ld && in.space == ptx::Space::Global;
    });
    REQUIRE(load != kernel.code.end());
    DeviceBuffer buffer(kBytes);
    SectorFootprint singles(buffer.address(), kBytes);  // what touching sectors one by one says
    std::mt19937_64 random(20261129);
    uint64_t epoch = 1;
    int requests_from[3] = {};
    for (int launch = 0; launch < 60; ++launch) {
        epoch += 1 + random() % 2;  // now and then a launch touches nothing, and leaves nothing in L2
        Counts counts;
        CounterListener listener(counts, kernel, epoch, random() % 2 == 0);
        Warp w;
        w.in_flight.assign(CounterListener::round_words(kernel), 0);
        uint64_t near = buffer.address();
        for (int i = 0; i < 300; ++i) {
            const Request r = random_request(random, buffer.address(), near);
            std::vector<uint64_t> sectors;
            for (uint32_t m = r.lanes; m; m &= m - 1)
                sectors.push_back(r.addresses[std::countr_zero(m)] / 32);
            std::sort(sectors.begin(), sectors.end());
            sectors.erase(std::unique(sectors.begin(), sectors.end()), sectors.end());
            uint64_t dram = 0;
            bool l2 = false;
            for (uint64_t sector : sectors) {
                const SectorTouch touch = singles.touch(sector * 32, epoch);
                dram += touch == SectorTouch::Dram ? 1 : 0;
                l2 |= touch == SectorTouch::L2;
            }
            const uint8_t expected_from = dram > 0 ? kRoundDram : l2 ? kRoundL2 : kRoundCached;

            const Counts before = counts;
            const bool is_load = random() % 2 == 0;
            w.round_open = false;
            w.round_source = kRoundCached;
            const MemoryEvent event{is_load ? MemoryEvent::Kind::Load : MemoryEvent::Kind::Store,
                                    ResolvedSpace::Global,
                                    r.addresses,
                                    r.lanes,
                                    4,
                                    r.stride};
            listener.on_memory_access(w, *load, event);
            CAPTURE(launch);
            CAPTURE(i);
            REQUIRE(counts.dram_sectors - before.dram_sectors == dram);
            if (is_load) {
                REQUIRE(counts.global_load_sectors - before.global_load_sectors == sectors.size());
                REQUIRE(w.round_source == expected_from);
                ++requests_from[expected_from];
            } else {
                REQUIRE(counts.global_store_sectors - before.global_store_sectors == sectors.size());
            }
        }
    }
    // The requests met sectors of every kind: touched already, left in L2, and from DRAM.
    CHECK(requests_from[kRoundCached] > 500);
    CHECK(requests_from[kRoundL2] > 500);
    CHECK(requests_from[kRoundDram] > 500);
}
