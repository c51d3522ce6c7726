// Straight runs (exec/scheduling/straight_runs.hpp) hold loads, stores and atomics beside
// arithmetic: what such a stretch does must not tell it from instructions run one at a time. The
// clock, which a run advances only at its end, keeps a memory access that reads it out of runs,
// and a fault inside a run names its own instruction.
#include <doctest/doctest.h>

#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>
#include <vector>

#include "exec/scheduling/straight_runs.hpp"
#include "ptx_runner.hpp"

using namespace cudasim;
using namespace cudasim::test;

namespace {

// Each lane stores the clock between arithmetic and other stores, and the clock read before and
// after by mov: %clock counts the block's warp instructions, so each value tells the instruction
// that read it.
const char* kClockStores = R"(
.visible .entry clock_stores(.param .u64 out)
{
  .reg .b32 %r<6>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %laneid;
  mul.wide.u32 %rd2, %r1, 16;
  add.s64 %rd3, %rd1, %rd2;
  mov.u32 %r2, %clock;
  add.s32 %r3, %r2, 1;
  st.global.u32 [%rd3], %r2;
  st.global.u32 [%rd3+4], %clock;
  add.s32 %r4, %r3, 1;
  st.global.u32 [%rd3+8], %r4;
  mov.u32 %r5, %clock;
  st.global.u32 [%rd3+12], %r5;
  ret;
}
)";

// The second store, in the middle of a run of stores and arithmetic, lands past the buffer's end
// for every lane when `skew` is the buffer's size.
const char* kFaultInRun = R"(
.visible .entry fault_in_run(.param .u64 out, .param .u64 skew)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd2, [skew];
  mov.u32 %r1, %laneid;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd1, %rd3;
  st.global.u32 [%rd4], %r1;
  add.s64 %rd5, %rd4, %rd2;
  add.s32 %r2, %r1, 100;
  st.global.u32 [%rd5], %r2;
  add.s32 %r3, %r2, 100;
  st.global.u32 [%rd4], %r3;
  ret;
}
)";

}  // namespace

TEST_CASE("straight runs hold memory accesses, except those that read the clock")
{
    ptx::Module m = parse_ptx(kClockStores);
    REQUIRE(m.kernels[0].error.empty());
    const std::vector<ptx::Instr>& code = m.kernels[0].code;
    int clock_stores = 0, other_stores = 0;
    for (const ptx::Instr& in : code) {
        if (in.op != ptx::Op::St)
            continue;
        const bool reads_clock = in.ops[2].kind == ptx::Operand::Kind::Clock32;
        CHECK(memory_step(in) == !reads_clock);
        ++(reads_clock ? clock_stores : other_stores);
    }
    CHECK(clock_stores == 1);
    CHECK(other_stores == 3);

    DeviceBuffer out(32 * 16);
    const LaunchResult r = run_kernel(m.kernels[0], {1, 1, 1}, {32, 1, 1}, {out.address()});
    INFO(r.message);
    REQUIRE(r.error == cudaSuccess);
    for (int lane = 0; lane < 32; ++lane) {
        CAPTURE(lane);
        const uint32_t* words = out.as<uint32_t>() + 4 * lane;
        const uint32_t first = words[0];  // mov's clock
        CHECK(words[1] == first + 3);     // the store three instructions later
        CHECK(words[2] == first + 2);     // the sum
        CHECK(words[3] == first + 6);     // mov's clock six instructions later
    }
}

TEST_CASE("a fault inside a straight run names its instruction and lane, and the stores before it happened")
{
    ptx::Module m = parse_ptx(kFaultInRun);
    REQUIRE(m.kernels[0].error.empty());
    DeviceBuffer out(32 * 4);
    const LaunchResult right = run_kernel(m.kernels[0], {1, 1, 1}, {32, 1, 1}, {out.address(), 0});
    INFO(right.message);
    REQUIRE(right.error == cudaSuccess);
    for (int lane = 0; lane < 32; ++lane)
        CHECK(out.as<uint32_t>()[lane] == static_cast<uint32_t>(lane + 200));

    std::vector<uint32_t> zeros(32, 0);
    REQUIRE(cudaMemcpy(out.data, zeros.data(), 32 * 4, cudaMemcpyHostToDevice) == cudaSuccess);
    const LaunchResult past = run_kernel(m.kernels[0], {1, 1, 1}, {32, 1, 1}, {out.address(), 32 * 4});
    CHECK(past.error == cudaErrorIllegalAddress);
    CHECK(past.message.find("Invalid __global__ write of size 4") != std::string::npos);
    CHECK(past.message.find("thread (0,0,0)") != std::string::npos);
    // The faulting store is line 14 of kFaultInRun (its first line empty), after the three lines
    // of the header that parse_ptx adds.
    CHECK(past.message.find("PTX line 17:") != std::string::npos);
    for (int lane = 0; lane < 32; ++lane)  // the first store, before the fault
        CHECK(out.as<uint32_t>()[lane] == static_cast<uint32_t>(lane));
}
