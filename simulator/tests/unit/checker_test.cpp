// Each checker on a planted bug: the launch stops with the matching error
// and a message naming kernel, block, thread and PTX line.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "ptx_runner.hpp"

using namespace cudasim;
using namespace cudasim::test;

namespace {
const char* kStoreAtOffset = R"(
.visible .entry store(.param .u64 p, .param .u64 off)
{
  .reg .b32 %r<3>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [p];
  ld.param.u64 %rd2, [off];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd1, %rd3;
  add.s64 %rd5, %rd4, %rd2;
  st.global.u32 [%rd5], %r1;
  ret;
}
)";
}  // namespace

TEST_CASE("global out-of-bounds write")
{
    ptx::Module m = parse_ptx(kStoreAtOffset);
    DeviceBuffer buf(32 * 4);
    LaunchResult r = run_kernel(m.kernels[0], {1, 1, 1}, {32, 1, 1}, {buf.address(), 4});
    CHECK(r.error == cudaErrorIllegalAddress);
    INFO(r.message);
    CHECK(r.message.find("Invalid __global__ write of size 4") != std::string::npos);
    CHECK(r.message.find("kernel store, block (0,0,0), thread (31,0,0), PTX line 15") != std::string::npos);
}

TEST_CASE("misaligned global access")
{
    ptx::Module m = parse_ptx(kStoreAtOffset);
    DeviceBuffer buf(64 * 4);
    LaunchResult r = run_kernel(m.kernels[0], {1, 1, 1}, {32, 1, 1}, {buf.address(), 2});
    CHECK(r.error == cudaErrorMisalignedAddress);
    CHECK(r.message.find("thread (0,0,0)") != std::string::npos);
}

TEST_CASE("use after free and host pointers")
{
    ptx::Module m = parse_ptx(kStoreAtOffset);
    uint64_t stale;
    {
        DeviceBuffer buf(32 * 4);
        stale = buf.address();
    }
    LaunchResult freed = run_kernel(m.kernels[0], {1, 1, 1}, {32, 1, 1}, {stale, 0});
    CHECK(freed.error == cudaErrorIllegalAddress);
    int host[32];
    LaunchResult on_host = run_kernel(m.kernels[0], {1, 1, 1}, {32, 1, 1}, {reinterpret_cast<uint64_t>(host), 0});
    CHECK(on_host.error == cudaErrorIllegalAddress);
    CHECK(on_host.message.find("not in any device allocation") != std::string::npos);
}

TEST_CASE("shared out-of-bounds, divergent barrier and runaway kernel")
{
    ptx::Module m = parse_ptx(R"(
.visible .entry shared_oob()
{
  .reg .b32 %r<3>;
  .shared .align 4 .b8 buf[64];
  mov.u32 %r1, %tid.x;
  shl.b32 %r2, %r1, 2;
  st.shared.u32 [%r2], %r1;
  ret;
}
.visible .entry half_barrier()
{
  .reg .pred %p<2>;
  .reg .b32 %r<2>;
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 16;
  @%p1 bra SYNC;
  bra DONE;
SYNC:
  bar.sync 0;
DONE:
  ret;
}
.visible .entry spin()
{
LOOP:
  bra LOOP;
}
)");
    LaunchResult shared = run_kernel(m.kernels[0], {1, 1, 1}, {32, 1, 1}, {});
    CHECK(shared.error == cudaErrorIllegalAddress);
    INFO(shared.message);
    CHECK(shared.message.find("thread (16,0,0)") != std::string::npos);
    LaunchResult barrier = run_kernel(m.kernels[1], {1, 1, 1}, {32, 1, 1}, {});
    CHECK(barrier.error == cudaErrorLaunchFailure);
    CHECK(barrier.message.find("Barrier error") != std::string::npos);
    LaunchResult runaway = run_kernel(m.kernels[2], {2, 1, 1}, {32, 1, 1}, {}, 0, 1'000'000);
    CHECK(runaway.error == cudaErrorLaunchTimeout);
}
