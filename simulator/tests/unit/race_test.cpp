// The shared-memory race check on handwritten PTX: what orders two accesses (bar.warp.sync for
// the lanes of its mask, nothing for atomics against plain stores), what never races (atomics with
// atomics or with plain loads), stores of an unchanged value, and CUDASIM_RACECHECK=0
// (LaunchContext::race_check); and the global one's stores of single bytes.
#include <doctest/doctest.h>

#include "ptx_runner.hpp"

#include <cstdint>
#include <string>
#include <vector>

using namespace cudasim;
using namespace cudasim::test;

namespace {

bool contains(const std::string& text, const std::string& part)
{
    return text.find(part) != std::string::npos;
}

const char* kRaces = R"(
.visible .entry atomic_then_write()
{
  .reg .b32 %r<5>;
  .shared .align 4 .b8 counter[4];
  mov.u32 %r1, counter;
  atom.shared.add.u32 %r2, [%r1], 1;
  st.shared.u32 [%r1], %r2;
  ret;
}
.visible .entry atomics_then_barrier()
{
  .reg .pred %p<2>;
  .reg .b32 %r<5>;
  .shared .align 4 .b8 counter[4];
  mov.u32 %r1, counter;
  mov.u32 %r4, %tid.x;
  atom.shared.add.u32 %r2, [%r1], 1;
  red.shared.max.u32 [%r1], %r4;
  bar.sync 0;
  setp.eq.u32 %p1, %r4, 0;
  @%p1 ld.shared.u32 %r3, [%r1];
  ret;
}
.visible .entry partial_warp_sync(.param .u32 reader, .param .u32 every_lane)
{
  .reg .pred %p<4>;
  .reg .b32 %r<6>;
  .shared .align 4 .b8 word[4];
  mov.u32 %r1, %tid.x;
  mov.u32 %r4, word;
  ld.param.u32 %r2, [reader];
  ld.param.u32 %r5, [every_lane];
  setp.eq.u32 %p1, %r1, 0;
  @%p1 st.shared.u32 [%r4], 7;
  setp.lt.u32 %p3, %r1, 16;
  setp.ne.or.u32 %p3, %r5, 0, %p3;
  @%p3 bar.warp.sync 65535;
  setp.eq.u32 %p2, %r1, %r2;
  @%p2 ld.shared.u32 %r3, [%r4];
  ret;
}
.visible .entry store_one_word(.param .u32 by_thread)
{
  .reg .pred %p<2>;
  .reg .b32 %r<6>;
  .shared .align 4 .b8 word[4];
  mov.u32 %r1, %tid.x;
  mov.u32 %r4, word;
  ld.param.u32 %r2, [by_thread];
  setp.ne.u32 %p1, %r2, 0;
  @%p1 st.shared.u32 [%r4], %r1;
  @!%p1 st.shared.u32 [%r4], 5;
  ret;
}
.visible .entry compare_and_swap_loop()
{
  .reg .pred %p<2>;
  .reg .b32 %r<6>;
  .shared .align 4 .b8 product[4];
  mov.u32 %r1, product;
  ld.shared.u32 %r2, [%r1];
$retry:
  mul.lo.u32 %r3, %r2, 3;
  atom.shared.cas.b32 %r4, [%r1], %r2, %r3;
  setp.ne.u32 %p1, %r4, %r2;
  mov.u32 %r2, %r4;
  @%p1 bra $retry;
  ret;
}
)";

}  // namespace

TEST_CASE("race check: an atomic and a plain store race; atomics with atomics or with plain loads do not")
{
    ptx::Module m = parse_ptx(kRaces);
    LaunchResult racing = run_kernel(m.kernels[0], {1, 1, 1}, {64, 1, 1}, {});
    INFO(racing.message);
    CHECK(racing.error == cudaErrorLaunchFailure);
    CHECK(contains(racing.message,
                   "shared-memory race (write-after-write) at __shared__ 0x0 in kernel atomic_then_write, "
                   "block (0,0,0): thread (31,0,0) (warp 0, lane 31) writes (atomically) at PTX line 10, "
                   "thread (0,0,0) (warp 0, lane 0) writes at PTX line 11, lanes of one warp"));
    LaunchResult ordered = run_kernel(m.kernels[1], {2, 1, 1}, {96, 1, 1}, {});
    INFO(ordered.message);
    CHECK(ordered.error == cudaSuccess);
    // The compare-and-swap loop of the CUDA Programming Guide: each thread's plain load only seeds
    // its guess, which the atomicCAS checks (compute-sanitizer's racecheck reports nothing here).
    LaunchResult loop = run_kernel(m.kernels.back(), {2, 1, 1}, {96, 1, 1}, {});
    INFO(loop.message);
    CHECK(loop.error == cudaSuccess);
}

TEST_CASE("race check: bar.warp.sync orders the lanes of its mask only")
{
    ptx::Module m = parse_ptx(kRaces);
    LaunchResult in_mask = run_kernel(m.kernels[2], {1, 1, 1}, {32, 1, 1}, {15, 0});
    INFO(in_mask.message);
    CHECK(in_mask.error == cudaSuccess);
    LaunchResult outside = run_kernel(m.kernels[2], {1, 1, 1}, {32, 1, 1}, {16, 0});
    INFO(outside.message);
    CHECK(outside.error == cudaErrorLaunchFailure);
    CHECK(contains(outside.message, "(read-after-write)"));
    CHECK(contains(outside.message, "thread (0,0,0) (warp 0, lane 0) writes at PTX line 38"));
    CHECK(contains(outside.message, "thread (16,0,0) (warp 0, lane 16) reads at PTX line 43"));
}

TEST_CASE("membermask check: a lane that executes bar.warp.sync must be in its mask")
{
    ptx::Module m = parse_ptx(kRaces);
    LaunchResult every_lane = run_kernel(m.kernels[2], {1, 1, 1}, {32, 1, 1}, {15, 1});
    INFO(every_lane.message);
    CHECK(every_lane.error == cudaErrorLaunchFailure);
    CHECK(contains(every_lane.message,
                   "Invalid membermask: __syncwarp() with membermask 0x0000ffff executed by lane 16, "
                   "which the mask leaves out, in kernel partial_warp_sync, block (0,0,0), thread "
                   "(16,0,0), PTX line 41"));
}

TEST_CASE("race check: stores of different values to one word race, of the same value do not")
{
    ptx::Module m = parse_ptx(kRaces);
    LaunchResult different = run_kernel(m.kernels[3], {1, 1, 1}, {64, 1, 1}, {1});
    INFO(different.message);
    CHECK(different.error == cudaErrorLaunchFailure);
    CHECK(contains(different.message, "(write-after-write) at __shared__ 0x0 in kernel store_one_word, block (0,0,0): "
                                      "thread (0,0,0) (warp 0, lane 0) writes at PTX line 55, "
                                      "thread (1,0,0) (warp 0, lane 1) writes at PTX line 55"));
    LaunchResult same = run_kernel(m.kernels[3], {1, 1, 1}, {64, 1, 1}, {0});
    INFO(same.message);
    CHECK(same.error == cudaSuccess);
}

TEST_CASE("race check: off, a racing kernel runs to its end")
{
    ptx::Module m = parse_ptx(kRaces);
    LaunchResult unchecked = run_kernel(m.kernels[3], {1, 1, 1}, {64, 1, 1}, {1}, 0, 1'000'000'000, false);
    CHECK(unchecked.error == cudaSuccess);
}

namespace {

// Thread t stores byte t of a global buffer, then reads byte (t + shift) % 32 of it, without a
// barrier: its own byte (shift 0) races with nothing, though three other threads wrote the rest of
// its word; another thread's byte (shift 1) races with that thread's store.
const char* kGlobalBytes = R"(
.visible .entry global_bytes(.param .u64 buffer, .param .u32 shift)
{
  .reg .b16 %h<3>;
  .reg .b32 %r<5>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [buffer];
  ld.param.u32 %r2, [shift];
  mov.u32 %r1, %tid.x;
  cvt.u64.u32 %rd2, %r1;
  add.s64 %rd3, %rd1, %rd2;
  cvt.u16.u32 %h1, %r1;
  st.global.u8 [%rd3], %h1;
  add.u32 %r3, %r1, %r2;
  and.b32 %r4, %r3, 31;
  cvt.u64.u32 %rd4, %r4;
  add.s64 %rd5, %rd1, %rd4;
  ld.global.u8 %h2, [%rd5];
  ret;
}
)";

}  // namespace

TEST_CASE("race check: global stores of single bytes race only with reads of the same bytes")
{
    ptx::Module m = parse_ptx(kGlobalBytes);
    DeviceBuffer buffer(32);
    LaunchResult own = run_kernel(m.kernels[0], {1, 1, 1}, {32, 1, 1}, {buffer.address(), 0});
    INFO(own.message);
    CHECK(own.error == cudaSuccess);
    LaunchResult neighbour = run_kernel(m.kernels[0], {1, 1, 1}, {32, 1, 1}, {buffer.address(), 1});
    INFO(neighbour.message);
    CHECK(neighbour.error == cudaErrorLaunchFailure);
    CHECK(contains(neighbour.message, "(read-after-write)"));
    CHECK(contains(neighbour.message, "thread (3,0,0) (warp 0, lane 3) writes at PTX line 16"));
    CHECK(contains(neighbour.message, "thread (2,0,0) (warp 0, lane 2) reads at PTX line 21"));
}
