#include "exec/scheduling/block_runner.hpp"

#include <algorithm>
#include <bit>
#include <cstddef>
#include <optional>
#include <string>

#include "exec/memory/race_check.hpp"
#include "exec/observers/counter_listener.hpp"
#include "exec/scheduling/device_model.hpp"
#include "exec/scheduling/schedule.hpp"
#include "support/demangle.hpp"

namespace cudasim {

namespace {
constexpr uint8_t kUninitializedSharedByte = 0x5a;
// The warps of a kernel that syncs its grid take turns this many instructions at a time (in order), so that a
// block that waits for another in a loop of its own (not grid.sync()) lets the others run.
constexpr uint64_t kCooperativeSlice = 4096;

size_t warps_of(const LaunchContext& launch)
{
    return static_cast<size_t>((launch.block.count() + kWarpSize - 1) / kWarpSize);
}
}  // namespace

BlockRunner::BlockRunner(LaunchContext& launch, Counts& counts)
    : launch_(launch), interpreter_(launch, counts), registers_(warps_of(launch) * launch.kernel->num_regs * kWarpSize)
{
    const ptx::Kernel& k = *launch.kernel;
    uint64_t threads = launch.block.count();
    warps_.resize(warps_of(launch));
    block_.local_bytes = k.local_bytes;
    block_.local.assign(threads * k.local_bytes, 0);
    uint32_t dynamic_base = (k.static_smem + 15) / 16 * 16;
    block_.shared.resize(dynamic_base + launch.dynamic_smem);
    for (const ptx::SharedVariable& v : k.shared_variables)
        block_.shared_extents.push_back({v.offset, v.offset + v.size, &v.name});
    if (launch.dynamic_smem != 0)
        block_.shared_extents.push_back({dynamic_base, dynamic_base + launch.dynamic_smem, nullptr});
    if (launch.race_check) {
        block_.shared_shadow.resize((block_.shared.size() + 3) / 4);
        block_.global_writes.resize(launch.grid_workspace != 0 ? kCooperativeGlobalWriteSlots : kGlobalWriteSlots);
        block_.global_write_mask = block_.global_writes.size() - 1;
    }
    if (launch.ordering)
        block_.ordering.resize(threads);
    fill_constant_registers();
}

// Special registers that are the same for every block of the launch. The
// program cannot write them, so they are filled once per worker.
void BlockRunner::fill_constant_registers()
{
    const ptx::Kernel& k = *launch_.kernel;
    const Dim3& bd = launch_.block;
    const Dim3& gd = launch_.grid;
    uint64_t threads = bd.count();
    for (size_t i = 0; i < warps_.size(); ++i) {
        Warp& w = warps_[i];
        w.index = static_cast<uint32_t>(i);
        uint64_t first = i * kWarpSize;
        uint64_t count = std::min<uint64_t>(kWarpSize, threads - first);
        w.valid_mask = count == kWarpSize ? 0xffffffffu : (1u << count) - 1;
        w.regs = registers_.data() + i * k.num_regs * kWarpSize;
        w.in_flight.assign(CounterListener::round_words(k), 0);
        auto fill = [&](uint32_t reg, uint64_t value) { std::fill(w.reg(reg), w.reg(reg) + kWarpSize, value); };
        for (int l = 0; l < kWarpSize; ++l) {
            uint64_t t = first + static_cast<uint64_t>(l);
            w.reg(ptx::SrTidX)[l] = t % bd.x;
            w.reg(ptx::SrTidY)[l] = t / bd.x % bd.y;
            w.reg(ptx::SrTidZ)[l] = t / (uint64_t{bd.x} * bd.y);
            w.reg(ptx::SrLaneid)[l] = static_cast<uint64_t>(l);
            w.reg(ptx::SrLanemaskEq)[l] = 1ull << l;
            w.reg(ptx::SrLanemaskLt)[l] = (1ull << l) - 1;
            w.reg(ptx::SrLanemaskLe)[l] = (2ull << l) - 1;
            w.reg(ptx::SrLanemaskGt)[l] = ~((2ull << l) - 1) & 0xffffffffu;
            w.reg(ptx::SrLanemaskGe)[l] = ~((1ull << l) - 1) & 0xffffffffu;
        }
        fill(ptx::SrNtidX, bd.x);
        fill(ptx::SrNtidY, bd.y);
        fill(ptx::SrNtidZ, bd.z);
        fill(ptx::SrNctaidX, gd.x);
        fill(ptx::SrNctaidY, gd.y);
        fill(ptx::SrNctaidZ, gd.z);
        fill(ptx::SrWarpid, i);
        fill(ptx::SrNwarpid, 64);
        fill(ptx::SrNsmid, device_model::kMultiprocessors);
        // As on a GPU, each launch has its own grid id: a kernel cannot tell the simulator by a
        // constant one.
        fill(ptx::SrGridid, launch_.epoch);
        fill(ptx::SrDynamicSmemSize, launch_.dynamic_smem);
        fill(ptx::SrTotalSmemSize, block_.shared.size());
        fill(ptx::SrEnvreg, 0);
        fill(ptx::SrEnvreg1, launch_.grid_workspace >> 32);
        fill(ptx::SrEnvreg2, launch_.grid_workspace & 0xffffffffu);
    }
}

void BlockRunner::start_warps(uint64_t linear_index)
{
    for (Warp& w : warps_) {
        w.exited = 0;
        w.active = w.valid_mask;
        w.pc = 0;
        w.rpc = -1;
        w.arrived = 0;
        w.status = Warp::Status::Ready;
        w.grid_arrivals = 0;
        w.stack.clear();
        w.calls.clear();
        std::fill(w.in_flight.begin(), w.in_flight.end(), 0);
        w.round_open = false;
        w.round_used = false;
        w.round_source = kRoundCached;
        std::fill(std::begin(w.phase_rounds), std::end(w.phase_rounds), 0u);
        w.reset_syncs();
        auto fill = [&](uint32_t reg, uint64_t value) { std::fill(w.reg(reg), w.reg(reg) + kWarpSize, value); };
        fill(ptx::SrCtaidX, block_.ctaid.x);
        fill(ptx::SrCtaidY, block_.ctaid.y);
        fill(ptx::SrCtaidZ, block_.ctaid.z);
        fill(ptx::SrSmid, linear_index % device_model::kMultiprocessors);
    }
}

void BlockRunner::check_barrier() const
{
    for (const Warp& w : warps_) {
        if (w.status != Warp::Status::AtBarrier || w.all_live_arrived())
            continue;
        uint32_t missing = w.live() & ~w.arrived;
        uint32_t lane = static_cast<uint32_t>(std::countr_zero(missing));
        uint32_t thread = w.index * kWarpSize + lane;
        const Dim3& b = launch_.block;
        throw DeviceFault(cudaErrorLaunchFailure,
                          "Barrier error in kernel " + demangle(launch_.kernel->name) + ", block (" +
                              std::to_string(block_.ctaid.x) + "," + std::to_string(block_.ctaid.y) + "," +
                              std::to_string(block_.ctaid.z) + "): thread (" + std::to_string(thread % b.x) + "," +
                              std::to_string(thread / b.x % b.y) + "," + std::to_string(thread / (b.x * b.y)) +
                              ") did not reach the barrier at PTX line " + std::to_string(w.barrier_line) +
                              " that other threads of its warp wait at (divergent __syncthreads)");
    }
}

// bar.red (__syncthreads_count/_and/_or): every waiting thread receives the
// reduction of the predicates of all threads that arrived.
void BlockRunner::finish_barrier_reduction()
{
    uint64_t voters = 0, yes = 0;
    uint8_t mode = ptx::BarSync;
    for (const Warp& w : warps_) {
        if (w.status != Warp::Status::AtBarrier || w.barrier_mode == ptx::BarSync)
            continue;
        mode = w.barrier_mode;
        voters += static_cast<uint64_t>(std::popcount(w.arrived));
        yes += static_cast<uint64_t>(std::popcount(w.votes));
    }
    if (mode == ptx::BarSync)
        return;
    uint64_t value = mode == ptx::BarRedPopc ? yes : mode == ptx::BarRedAnd ? (yes == voters) : (yes > 0);
    for (Warp& w : warps_) {
        if (w.status != Warp::Status::AtBarrier || w.barrier_mode == ptx::BarSync)
            continue;
        for (uint32_t m = w.arrived; m; m &= m - 1)
            w.reg(w.barrier_dest)[std::countr_zero(m)] = value;
    }
}

// A seeded schedule's barrier interval: slices of 1 to 64 instructions, each given to a ready warp
// drawn at random, until every warp waits at the barrier or has exited.
void BlockRunner::run_shuffled(ScheduleRandom& random)
{
    // The ready warps in the order of their index; only the warp that ran can leave the list (at a
    // barrier or its exit), and none joins it until the barrier is released.
    std::vector<Warp*>& ready = ready_warps_;
    ready.clear();
    for (Warp& w : warps_)
        if (w.status == Warp::Status::Ready)
            ready.push_back(&w);
    while (!ready.empty()) {
        const uint32_t chosen = random.below(static_cast<uint32_t>(ready.size()));
        Warp& w = *ready[chosen];
        interpreter_.start_slice(w, block_, 1 + random.below(64));
        interpreter_.run(w, block_);
        interpreter_.end_slice();
        if (w.status != Warp::Status::Ready)
            ready.erase(ready.begin() + chosen);
    }
}

void BlockRunner::begin(uint64_t linear_index)
{
    const Dim3& g = launch_.grid;
    block_.ctaid = {static_cast<uint32_t>(linear_index % g.x), static_cast<uint32_t>(linear_index / g.x % g.y),
                    static_cast<uint32_t>(linear_index / (uint64_t{g.x} * g.y))};
    block_.linear_index = linear_index;
    block_.clock = 0;
    block_.printf_output.clear();
    if (launch_.ordering)
        block_.ordering.start_block();
    // Shared memory starts with the same non-zero pattern in every block: on a
    // GPU it holds whatever an earlier block left, so a kernel that reads
    // words it never wrote gets a wrong result here too, and the same one
    // whichever block ran before on this worker.
    std::fill(block_.shared.begin(), block_.shared.end(), kUninitializedSharedByte);
    block_.new_race_interval();
    start_warps(linear_index);
    random_.reset();
    if (launch_.schedule != 0)
        random_.emplace(launch_.schedule, launch_.epoch, linear_index);
    interpreter_.shuffle_with(random_ ? &*random_ : nullptr);
}

// The end of a barrier interval, when no warp is ready: false if every warp has exited, else the
// barrier they wait at is checked and released.
bool BlockRunner::release_barrier()
{
    if (launch_.counting)
        interpreter_.counters().on_phase_end(warps_);
    const bool any_waiting =
        std::any_of(warps_.begin(), warps_.end(), [](const Warp& w) { return w.status == Warp::Status::AtBarrier; });
    if (!any_waiting)
        return false;
    check_barrier();
    finish_barrier_reduction();
    block_.new_race_interval();  // the barrier orders every access before it before every one after
    ++block_.ordering.interval;
    for (Warp& w : warps_) {
        w.reset_syncs();
        if (w.status != Warp::Status::AtBarrier)
            continue;
        w.status = Warp::Status::Ready;
        w.arrived = 0;
        w.votes = 0;
    }
    return true;
}

void BlockRunner::run(uint64_t linear_index)
{
    begin(linear_index);
    do {
        if (random_)
            run_shuffled(*random_);
        else
            for (Warp& w : warps_)
                if (w.status == Warp::Status::Ready)
                    interpreter_.run(w, block_);
    } while (release_barrier());
}

bool BlockRunner::advance()
{
    bool any_ready = false;
    for (Warp& w : warps_) {
        if (w.status != Warp::Status::Ready)
            continue;
        interpreter_.start_slice(w, block_, random_ ? 1 + random_->below(64) : kCooperativeSlice);
        interpreter_.run(w, block_);
        interpreter_.end_slice();
        any_ready = any_ready || w.status == Warp::Status::Ready;
    }
    return !any_ready && !release_barrier();
}

}  // namespace cudasim
