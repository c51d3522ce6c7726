#include "exec/memory/race_check.hpp"

#include <cstdio>

#include "support/demangle.hpp"

namespace cudasim {
namespace {

const char* verb(RaceAccessKind kind)
{
    if (kind == RaceAccessKind::Read)
        return "reads";
    return kind == RaceAccessKind::Write ? "writes" : "writes (atomically)";
}

std::string describe_access(const LaunchContext& launch, const RaceAccess& a, RaceAccessKind kind)
{
    const Dim3& b = launch.block;
    const uint32_t t = a.thread();
    const ptx::Kernel& k = *launch.kernel;
    const std::string where = a.pc() < k.code.size() && a.pc() < RaceAccess::kPcs - 1
                                  ? ptx::source_position(k, k.code[a.pc()])
                                  : "an unknown PTX line";
    return "thread (" + std::to_string(t % b.x) + "," + std::to_string(t / b.x % b.y) + "," +
           std::to_string(t / (b.x * b.y)) + ") (warp " + std::to_string(t / kWarpSize) + ", lane " +
           std::to_string(t % kWarpSize) + ") " + verb(kind) + " at " + where;
}

}  // namespace

void report_race(const LaunchContext& launch, const BlockState& b, const RaceAccess& earlier,
                 RaceAccessKind earlier_kind, const RaceAccess& later, RaceAccessKind later_kind, uint64_t address,
                 bool same_warp, bool global)
{
    const char* hazard = earlier_kind == RaceAccessKind::Read ? "write-after-read"
                         : later_kind == RaceAccessKind::Read ? "read-after-write"
                                                              : "write-after-write";
    char hex[32];
    std::snprintf(hex, sizeof hex, "0x%llx", static_cast<unsigned long long>(address));
    const Dim3& c = b.ctaid;
    throw DeviceFault(
        cudaErrorLaunchFailure,
        std::string(global ? "global-memory race (" : "shared-memory race (") + hazard + ") at " +
            (global ? "global address " : "__shared__ ") + hex + " in kernel " + demangle(launch.kernel->name) +
            ", block (" + std::to_string(c.x) + "," + std::to_string(c.y) + "," + std::to_string(c.z) +
            "): " + describe_access(launch, earlier, earlier_kind) + ", " + describe_access(launch, later, later_kind) +
            (same_warp ? ", lanes of one warp with no __syncwarp() or barrier between them"
                       : ", with no barrier between them"));
}

}  // namespace cudasim
