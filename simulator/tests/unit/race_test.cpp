// The shared-memory race check on handwritten PTX: what orders two accesses (bar.warp.sync for
// the lanes of its mask, nothing for atomics against plain stores), what never races (atomics with
// atomics or with plain loads), stores of an unchanged value, and CUDASIM_RACECHECK=0
// (LaunchContext::race_check); and the global one's stores of single bytes.
#include <doctest/doctest.h>

#include "ptx_runner.hpp"

#include <cstddef>
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

namespace {

// A warp's accesses of 32 consecutive words, lane after lane (exec/memory/shared_race_lines.hpp).
// lines: thread t stores word t, then (after a barrier, where `barrier` asks for one) reads word
// (t + shift) % 64; a barrier whose guard is false for every lane is none. rewrite: thread t stores
// 7 in word t; after a barrier, the threads of warp 0 read words 32 to 63, and then each thread
// stores in its word 7 again (`change` 0) or its index.
const char* kLines = R"(
.visible .entry lines(.param .u32 shift, .param .u32 barrier)
{
  .reg .pred %p<2>;
  .reg .b32 %r<9>;
  .shared .align 4 .b8 cache[256];
  mov.u32 %r1, %tid.x;
  ld.param.u32 %r2, [shift];
  ld.param.u32 %r3, [barrier];
  mov.u32 %r4, cache;
  shl.b32 %r5, %r1, 2;
  add.u32 %r5, %r4, %r5;
  st.shared.u32 [%r5], %r1;
  setp.ne.u32 %p1, %r3, 0;
  @%p1 bar.sync 0;
  add.u32 %r6, %r1, %r2;
  and.b32 %r6, %r6, 63;
  shl.b32 %r6, %r6, 2;
  add.u32 %r6, %r4, %r6;
  ld.shared.u32 %r7, [%r6];
  ret;
}
.visible .entry rewrite(.param .u32 change)
{
  .reg .pred %p<2>;
  .reg .b32 %r<9>;
  .shared .align 4 .b8 cache[256];
  mov.u32 %r1, %tid.x;
  ld.param.u32 %r2, [change];
  mov.u32 %r4, cache;
  shl.b32 %r5, %r1, 2;
  add.u32 %r5, %r4, %r5;
  st.shared.u32 [%r5], 7;
  bar.sync 0;
  add.u32 %r6, %r1, 32;
  and.b32 %r6, %r6, 63;
  shl.b32 %r6, %r6, 2;
  add.u32 %r6, %r4, %r6;
  setp.lt.u32 %p1, %r1, 32;
  @%p1 ld.shared.u32 %r7, [%r6];
  setp.ne.u32 %p1, %r2, 0;
  selp.u32 %r8, %r1, 7, %p1;
  st.shared.u32 [%r5], %r8;
  ret;
}
.visible .entry scattered(.param .u32 barrier)
{
  .reg .pred %p<3>;
  .reg .b32 %r<9>;
  .shared .align 4 .b8 cache[256];
  mov.u32 %r1, %tid.x;
  ld.param.u32 %r2, [barrier];
  mov.u32 %r4, cache;
  mul.lo.u32 %r5, %r1, 33;
  and.b32 %r5, %r5, 63;
  shl.b32 %r5, %r5, 2;
  add.u32 %r5, %r4, %r5;
  setp.lt.u32 %p1, %r1, 32;
  @%p1 st.shared.u32 [%r5], %r1;
  setp.ne.u32 %p2, %r2, 0;
  @%p2 bar.sync 0;
  and.b32 %r6, %r1, 31;
  shl.b32 %r6, %r6, 2;
  add.u32 %r6, %r4, %r6;
  @!%p1 ld.shared.u32 %r7, [%r6];
  ret;
}
.visible .entry mixed()
{
  .reg .pred %p<3>;
  .reg .b32 %r<9>;
  .shared .align 4 .b8 cache[256];
  mov.u32 %r1, %tid.x;
  mov.u32 %r4, cache;
  setp.eq.u32 %p1, %r1, 0;
  @%p1 st.shared.u32 [%r4], 5;
  setp.lt.u32 %p2, %r1, 32;
  and.b32 %r5, %r1, 31;
  shl.b32 %r5, %r5, 2;
  add.u32 %r5, %r4, %r5;
  @%p2 ld.shared.u32 %r7, [%r5];
  sub.u32 %r6, %r1, 31;
  shl.b32 %r6, %r6, 2;
  add.u32 %r6, %r4, %r6;
  @!%p2 st.shared.u32 [%r6], %r1;
  ret;
}
)";

LaunchResult run_lines(const ptx::Module& m, int kernel, const std::vector<uint64_t>& args)
{
    return run_kernel(m.kernels[static_cast<size_t>(kernel)], {1, 1, 1}, {64, 1, 1}, args);
}

}  // namespace

TEST_CASE("race check: a warp's line of shared words races where its lanes' words do")
{
    ptx::Module m = parse_ptx(kLines);
    CHECK(run_lines(m, 0, {0, 0}).error == cudaSuccess);   // each thread its own word
    CHECK(run_lines(m, 0, {32, 1}).error == cudaSuccess);  // the other warp's words, after a barrier
    // Lane 0 reads the word lane 1 stored: lanes of one warp are not ordered.
    LaunchResult neighbour = run_lines(m, 0, {1, 0});
    INFO(neighbour.message);
    CHECK(neighbour.error == cudaErrorLaunchFailure);
    CHECK(contains(neighbour.message, "(read-after-write) at __shared__ 0x4 in kernel lines, block (0,0,0): "
                                      "thread (1,0,0) (warp 0, lane 1) writes at PTX line 16, "
                                      "thread (0,0,0) (warp 0, lane 0) reads at PTX line 23"));
    // Warp 0 reads words 32 to 63 before warp 1 stores them, with no barrier between.
    LaunchResult other_warp = run_lines(m, 0, {32, 0});
    INFO(other_warp.message);
    CHECK(other_warp.error == cudaErrorLaunchFailure);
    CHECK(contains(other_warp.message, "(write-after-read) at __shared__ 0x80 in kernel lines, block (0,0,0): "
                                       "thread (0,0,0) (warp 0, lane 0) reads at PTX line 23, "
                                       "thread (32,0,0) (warp 1, lane 0) writes at PTX line 16"));
}

TEST_CASE("race check: a warp's line of shared accesses races with the lanes' accesses of another warp")
{
    ptx::Module m = parse_ptx(kLines);
    CHECK(run_lines(m, 2, {1}).error == cudaSuccess);
    LaunchResult unordered = run_lines(m, 2, {0});
    INFO(unordered.message);
    CHECK(unordered.error == cudaErrorLaunchFailure);
    CHECK(contains(unordered.message, "(read-after-write) at __shared__ 0x0 in kernel scattered, block (0,0,0): "
                                      "thread (0,0,0) (warp 0, lane 0) writes at PTX line 62, "
                                      "thread (32,0,0) (warp 1, lane 0) reads at PTX line 68"));
    // Warp 0's reads of words 1 to 31 are of this interval though word 32 has no record yet.
    LaunchResult after_reads = run_lines(m, 3, {});
    INFO(after_reads.message);
    CHECK(after_reads.error == cudaErrorLaunchFailure);
    CHECK(contains(after_reads.message, "(write-after-read) at __shared__ 0x4 in kernel mixed, block (0,0,0): "
                                        "thread (1,0,0) (warp 0, lane 1) reads at PTX line 84, "
                                        "thread (32,0,0) (warp 1, lane 0) writes at PTX line 88"));
}

TEST_CASE("race check: a warp's line of shared stores races only where it changes a word")
{
    ptx::Module m = parse_ptx(kLines);
    LaunchResult same = run_lines(m, 1, {0});
    INFO(same.message);
    CHECK(same.error == cudaSuccess);
    LaunchResult changed = run_lines(m, 1, {1});
    INFO(changed.message);
    CHECK(changed.error == cudaErrorLaunchFailure);
    CHECK(contains(changed.message, "(write-after-read) at __shared__ 0x80 in kernel rewrite, block (0,0,0): "
                                    "thread (0,0,0) (warp 0, lane 0) reads at PTX line 43, "
                                    "thread (32,0,0) (warp 1, lane 0) writes at PTX line 46"));
}
