// The simulator's counters as the graders read them: ratios, sums over launches, and where they
// come from.
#include "course/backend.hpp"
#include "course/kernel_profile.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <stdexcept>
#include <string>

namespace {

course::KernelProfile launch_of(std::uint64_t warps, std::uint64_t instructions, int resident_warps)
{
    course::KernelProfile p;
    p.kernel.assign(1, 'k');  // not = "k": GCC 12 warns falsely there at -O3 (its bug 105329)
    p.launches = 1;
    p.blocks = warps / 4;
    p.warps = warps;
    p.warp_instructions = instructions;
    p.thread_instructions = 16 * instructions;  // half the lanes busy
    p.issue_slots = 2 * instructions;
    p.branches = 10;
    p.divergent_branches = 4;
    p.global_load_requests = 8;
    p.global_load_sectors = 32;
    p.memory_round_trips = warps / 2;  // two per block of four warps
    p.global_wide_load_requests = 6;
    p.shared_requests = 5;
    p.barriers = 2 * warps;
    p.shuffles = 10 * warps;
    p.warp_reductions = warps;
    p.bank_conflicts = 10;
    p.atomic_updates = warps * 32;
    p.updates_on_busiest_address = warps;
    p.resident_warps_per_sm = resident_warps;
    p.modelled_ms = 0.5;
    return p;
}

}  // namespace

TEST_CASE("a kernel profile's ratios")
{
    const auto p = launch_of(100, 1000, 48);
    CHECK(p.instructions_per_warp() == doctest::Approx(10.0));
    CHECK(p.issue_slots_per_warp() == doctest::Approx(20.0));
    CHECK(p.warp_execution_efficiency() == doctest::Approx(0.5));
    CHECK(p.branch_efficiency() == doctest::Approx(0.6));
    CHECK(p.sectors_per_load_request() == doctest::Approx(4.0));
    CHECK(p.conflicts_per_shared_request() == doctest::Approx(2.0));
    CHECK(p.atomic_updates_per_warp() == doctest::Approx(32.0));
    // 100 warps, 48 resident per SM: one or two SMs are full to 48 / 64; four SMs hold all 100 warps
    // in 256 slots.
    CHECK(p.achieved_occupancy(1) == doctest::Approx(0.75));
    CHECK(p.achieved_occupancy(2) == doctest::Approx(0.75));
    CHECK(p.achieved_occupancy(4) == doctest::Approx(100.0 / 256.0));
    CHECK(p.global_load_bytes_per_warp() == doctest::Approx(10.24));  // 32 sectors of 32 B over 100 warps
    CHECK(p.memory_round_trips_per_block() == doctest::Approx(2.0));
    CHECK(p.wide_load_share() == doctest::Approx(0.75));
    CHECK(p.shared_requests_per_warp() == doctest::Approx(0.05));
    CHECK(p.barriers_per_warp() == doctest::Approx(2.0));
    CHECK(p.warp_exchanges_per_warp() == doctest::Approx(15.0));  // 10 shuffles + one redux.sync for 5
}

TEST_CASE("an empty profile's ratios are defined")
{
    const course::KernelProfile empty;
    CHECK(empty.instructions_per_warp() == 0.0);
    CHECK(empty.branch_efficiency() == 1.0);  // no branch diverged
    CHECK(empty.sectors_per_load_request() == 0.0);
    CHECK(empty.global_load_bytes_per_warp() == 0.0);
    CHECK(empty.memory_round_trips_per_block() == 0.0);
    CHECK(empty.wide_load_share() == 0.0);
    CHECK(empty.barriers_per_warp() == 0.0);
}

TEST_CASE("profiles of several launches add up; occupancy is the biggest launch's")
{
    auto sum = launch_of(1000, 10'000, 64);
    sum += launch_of(8, 400, 8);  // a one-block second phase
    CHECK(sum.launches == 2);
    CHECK(sum.warps == 1008);
    CHECK(sum.blocks == 252);
    CHECK(sum.memory_round_trips == 504);
    CHECK(sum.warp_instructions == 10'400);
    CHECK(sum.shuffles == 10'080);
    CHECK(sum.barriers == 2016);
    CHECK(sum.global_wide_load_requests == 12);
    CHECK(sum.updates_on_busiest_address == 1000);  // the busiest address of either, not a sum
    CHECK(sum.resident_warps_per_sm == 64);
    CHECK(sum.modelled_ms == doctest::Approx(1.0));
    CHECK(sum.kernel == "k");
}

TEST_CASE("counters come from the simulator, and only for work that launches a kernel")
{
    const auto no_kernel = [](cudaStream_t) {};
    if (course::kOnSimulator)
        CHECK_THROWS_AS((void)course::profile(no_kernel, nullptr), std::runtime_error);
    else
        CHECK_THROWS_AS((void)course::profile(no_kernel, nullptr), std::logic_error);
}
