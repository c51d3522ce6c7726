// Instructions that nvcc only emits for newer targets or that are easier to
// pin down in PTX than in CUDA C++.
#include <doctest/doctest.h>

#include <cuda_runtime_api.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "ptx_runner.hpp"

using namespace cudasim;
using namespace cudasim::test;

TEST_CASE("redux, prmt, signed bfe, slct and setp with a boolean combiner")
{
    ptx::Module m = parse_ptx(R"(
.visible .entry k(.param .u64 out)
{
  .reg .pred %p<4>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd2, %r1, 32;
  add.s64 %rd3, %rd1, %rd2;
  redux.sync.add.u32 %r2, %r1, -1;
  redux.sync.max.s32 %r3, %r1, -1;
  prmt.b32 %r4, 0x44332211, 0x88776655, 0x7531;
  bfe.s32 %r5, 0x00000F00, 8, 4;
  slct.s32.s32 %r6, 1, 2, %r1;
  setp.lt.u32 %p1, %r1, 4;
  setp.gt.and.u32 %p2, %r1, 1, %p1;
  selp.u32 %r7, 1, 0, %p2;
  st.global.v2.u32 [%rd3], {%r2, %r3};
  st.global.v4.u32 [%rd3+16], {%r4, %r5, %r6, %r7};
  ret;
}
)");
    REQUIRE(m.kernels[0].error.empty());
    DeviceBuffer out(32 * 32);
    LaunchResult r = run_kernel(m.kernels[0], {1, 1, 1}, {32, 1, 1}, {out.address()});
    REQUIRE(r.error == cudaSuccess);
    const uint32_t* v = out.as<uint32_t>();
    for (uint32_t t = 0; t < 32; ++t) {
        const uint32_t* row = v + 8 * t;
        CHECK(row[0] == 496);
        CHECK(row[1] == 31);
        CHECK(row[4] == 0x88664422u);
        CHECK(row[5] == 0xffffffffu);
        CHECK(row[6] == 1);
        CHECK(row[7] == (t > 1 && t < 4 ? 1u : 0u));
    }
    // The counters see two warp reductions and no shuffle.
    CHECK(r.counts.warp_reductions == 2);
    CHECK(r.counts.shuffles == 0);
}

TEST_CASE("sad and dp4a")
{
    ptx::Module m = parse_ptx(R"(
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<6>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [out];
  sad.s32 %r1, -5, 7, 100;
  sad.u32 %r2, 3, 10, 1;
  dp4a.s32.s32 %r3, 0x01FF0203, 0x02030405, 10;
  dp4a.u32.u32 %r4, 0x01FF0203, 0x02030405, 10;
  st.global.v4.u32 [%rd1], {%r1, %r2, %r3, %r4};
  ret;
}
)");
    REQUIRE(m.kernels[0].error.empty());
    DeviceBuffer out(16);
    LaunchResult r = run_kernel(m.kernels[0], {1, 1, 1}, {1, 1, 1}, {out.address()});
    REQUIRE(r.error == cudaSuccess);
    const uint32_t* v = out.as<uint32_t>();
    CHECK(v[0] == 112);                  // 100 + |-5 - 7|
    CHECK(v[1] == 8);                    // 1 + |3 - 10|
    CHECK(v[2] == 10 + 2 - 3 + 8 + 15);  // bytes (1,-1,2,3) . (2,3,4,5)
    CHECK(v[3] == 10 + 2 + 765 + 8 + 15);
}

TEST_CASE("bar.red counts, ANDs and ORs predicates across the block")
{
    ptx::Module m = parse_ptx(R"(
.visible .entry k(.param .u64 out)
{
  .reg .pred %p<6>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 3;
  setp.eq.s32 %p1, %r2, 0;
  bar.red.popc.u32 %r3, 0, %p1;
  setp.lt.u32 %p2, %r1, 1000;
  bar.red.and.pred %p3, 0, %p2;
  setp.eq.s32 %p4, %r1, 63;
  bar.red.or.pred %p5, 0, %p4;
  selp.u32 %r4, 1, 0, %p3;
  selp.u32 %r5, 1, 0, %p5;
  mul.wide.u32 %rd2, %r1, 16;
  add.s64 %rd3, %rd1, %rd2;
  st.global.v4.u32 [%rd3], {%r3, %r4, %r5, %r1};
  ret;
}
)");
    REQUIRE(m.kernels[0].error.empty());
    DeviceBuffer out(64 * 16);
    LaunchResult r = run_kernel(m.kernels[0], {1, 1, 1}, {64, 1, 1}, {out.address()});
    REQUIRE(r.error == cudaSuccess);
    const uint32_t* v = out.as<uint32_t>();
    for (int t = 0; t < 64; ++t) {
        CHECK(v[4 * t] == 16);
        CHECK(v[4 * t + 1] == 1);
        CHECK(v[4 * t + 2] == 1);
    }
}

TEST_CASE("vote.uni, exit, and a few float and 64-bit forms")
{
    ptx::Module m = parse_ptx(R"(
.visible .entry k(.param .u64 out)
{
  .reg .pred %p<6>;
  .reg .b32 %r<12>;
  .reg .f32 %f<6>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %laneid;
  setp.lt.u32 %p1, %r1, 40;
  vote.sync.uni.pred %p2, %p1, -1;
  setp.lt.u32 %p3, %r1, 16;
  vote.sync.uni.pred %p4, %p3, -1;
  selp.u32 %r2, 1, 0, %p2;
  selp.u32 %r3, 1, 0, %p4;
  mov.f32 %f1, 0f40800000;
  rsqrt.approx.f32 %f2, %f1;
  copysign.f32 %f3, 0fBF800000, %f2;
  cvt.rzi.s32.f32 %r4, 0fC0700000;
  cvt.sat.u8.s32 %r5, 300;
  mov.u64 %rd2, -9;
  div.s64 %rd3, %rd2, 2;
  rem.s64 %rd4, %rd2, 2;
  shr.s64 %rd5, %rd2, 1;
  cvt.u32.u64 %r6, %rd3;
  cvt.u32.u64 %r7, %rd4;
  cvt.u32.u64 %r8, %rd5;
  mov.b32 %r9, %f3;
  setp.ne.s32 %p5, %r1, 0;
  @%p5 exit;
  st.global.v4.u32 [%rd1], {%r2, %r3, %r4, %r5};
  st.global.v4.u32 [%rd1+16], {%r6, %r7, %r8, %r9};
  exit;
}
)");
    REQUIRE(m.kernels[0].error.empty());
    DeviceBuffer out(32);
    LaunchResult r = run_kernel(m.kernels[0], {1, 1, 1}, {32, 1, 1}, {out.address()});
    REQUIRE(r.error == cudaSuccess);
    const uint32_t* v = out.as<uint32_t>();
    CHECK(v[0] == 1);                         // all 32 lanes agree
    CHECK(v[1] == 0);                         // lanes disagree
    CHECK(static_cast<int32_t>(v[2]) == -3);  // -3.75 truncated
    CHECK(v[3] == 255);                       // saturated to u8
    CHECK(static_cast<int32_t>(v[4]) == -4);  // -9 / 2 rounds toward zero
    CHECK(static_cast<int32_t>(v[5]) == -1);
    CHECK(static_cast<int32_t>(v[6]) == -5);  // arithmetic shift
    CHECK(v[7] == 0xBF000000u);               // -0.5: sign of -1, magnitude of rsqrt(4)
}

TEST_CASE("approximate transcendentals")
{
    ptx::Module m = parse_ptx(R"(
.visible .entry k(.param .u64 out)
{
  .reg .f32 %f<10>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [out];
  mov.f32 %f1, 0f3F000000;
  sin.approx.f32 %f2, %f1;
  cos.approx.ftz.f32 %f3, %f1;
  ex2.approx.ftz.f32 %f4, %f1;
  lg2.approx.f32 %f5, %f1;
  tanh.approx.f32 %f6, %f1;
  rcp.rn.f32 %f7, %f1;
  sqrt.rn.f32 %f8, %f1;
  st.global.v4.f32 [%rd1], {%f2, %f3, %f4, %f5};
  st.global.v4.f32 [%rd1+16], {%f6, %f7, %f8, %f1};
  ret;
}
)");
    REQUIRE(m.kernels[0].error.empty());
    DeviceBuffer out(32);
    LaunchResult r = run_kernel(m.kernels[0], {1, 1, 1}, {1, 1, 1}, {out.address()});
    REQUIRE(r.error == cudaSuccess);
    const float* v = out.as<float>();
    CHECK(v[0] == doctest::Approx(std::sin(0.5)).epsilon(1e-6));
    CHECK(v[1] == doctest::Approx(std::cos(0.5)).epsilon(1e-6));
    CHECK(v[2] == doctest::Approx(std::exp2(0.5)).epsilon(1e-6));
    CHECK(v[3] == doctest::Approx(-1.0).epsilon(1e-6));
    CHECK(v[4] == doctest::Approx(std::tanh(0.5)).epsilon(1e-6));
    CHECK(v[5] == 2.0f);
    CHECK(v[6] == doctest::Approx(std::sqrt(0.5)).epsilon(1e-7));
}

TEST_CASE("cnot, bfi and bfind")
{
    ptx::Module m = parse_ptx(R"(
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [out];
  cnot.b32 %r1, 0;
  cnot.b32 %r2, 7;
  bfi.b32 %r3, 0xF, 0xFFFF0000, 4, 8;
  bfind.u32 %r4, 0x00F00000;
  st.global.v4.u32 [%rd1], {%r1, %r2, %r3, %r4};
  ret;
}
)");
    REQUIRE(m.kernels[0].error.empty());
    DeviceBuffer out(16);
    LaunchResult r = run_kernel(m.kernels[0], {1, 1, 1}, {1, 1, 1}, {out.address()});
    REQUIRE(r.error == cudaSuccess);
    const uint32_t* v = out.as<uint32_t>();
    CHECK(v[0] == 1);
    CHECK(v[1] == 0);
    CHECK(v[2] == 0xFFFF00F0u);
    CHECK(v[3] == 23);
}

TEST_CASE("%envreg registers read as 0, so a kernel that reads them (grid.sync()) decodes")
{
    // cooperative_groups::this_grid().sync() reads its grid workspace from %envreg1 and %envreg2;
    // such a kernel must decode, although cooperative launches themselves are refused.
    ptx::Module m = parse_ptx(R"(
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %envreg1;
  mov.u32 %r2, %envreg2;
  mov.u32 %r3, %envreg31;
  st.global.v4.u32 [%rd1], {%r1, %r2, %r3, %r3};
  ret;
}
)");
    REQUIRE(m.kernels[0].error.empty());
    DeviceBuffer out(16);
    std::memset(out.data, 0xff, 16);
    LaunchResult r = run_kernel(m.kernels[0], {1, 1, 1}, {1, 1, 1}, {out.address()});
    REQUIRE(r.error == cudaSuccess);
    const uint32_t* v = out.as<uint32_t>();
    CHECK(v[0] == 0);
    CHECK(v[1] == 0);
    CHECK(v[2] == 0);
}

TEST_CASE("divisions by a power of two that the lanes share, constant shifts, and setp into a pair")
{
    ptx::Module m = parse_ptx(R"(
.visible .entry k(.param .u64 out)
{
  .reg .pred %p<4>;
  .reg .b16 %h<3>;
  .reg .b32 %r<20>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %laneid;
  mul.wide.u32 %rd2, %r1, 64;
  add.s64 %rd3, %rd1, %rd2;
  add.u32 %r1, %r1, 1000;
  mov.u32 %r2, 8;
  div.u32 %r3, %r1, %r2;
  rem.u32 %r4, %r1, %r2;
  add.u32 %r5, %r1, -999;
  div.u32 %r6, %r1, %r5;
  mov.u32 %r7, 0;
  div.u32 %r8, %r1, %r7;
  rem.u32 %r9, %r1, %r7;
  setp.lt.u32 %p1|%p2, %r5, 17;
  selp.u32 %r10, 4, 3, %p1;
  mov.u32 %r11, 77;
  @%p1 rem.u32 %r11, %r1, %r10;
  @%p2 div.u32 %r11, %r1, %r10;
  shl.b32 %r12, %r1, 33;
  shr.u32 %r13, %r1, 40;
  shl.b32 %r14, %r1, 31;
  shr.u32 %r15, %r14, 31;
  cvt.u16.u32 %h1, %r1;
  shl.b16 %h2, %h1, 7;
  cvt.u32.u16 %r16, %h2;
  cvt.u64.u32 %rd4, %r1;
  shl.b64 %rd5, %rd4, 40;
  shr.u64 %rd5, %rd5, 8;
  cvt.u32.u64 %r17, %rd5;
  shr.u64 %rd5, %rd5, 32;
  cvt.u32.u64 %r18, %rd5;
  selp.u32 %r19, 1, 0, %p2;
  st.global.v4.u32 [%rd3], {%r3, %r4, %r6, %r8};
  st.global.v4.u32 [%rd3+16], {%r9, %r11, %r12, %r13};
  st.global.v4.u32 [%rd3+32], {%r14, %r15, %r16, %r17};
  st.global.v2.u32 [%rd3+48], {%r18, %r19};
  ret;
}
)");
    REQUIRE(m.kernels[0].error.empty());
    DeviceBuffer out(32 * 64);
    LaunchResult r = run_kernel(m.kernels[0], {1, 1, 1}, {32, 1, 1}, {out.address()});
    REQUIRE(r.error == cudaSuccess);
    const uint32_t* v = out.as<uint32_t>();
    for (uint32_t lane = 0; lane < 32; ++lane) {
        const uint32_t* row = v + 16 * lane;
        const uint32_t x = lane + 1000;
        CAPTURE(lane);
        CHECK(row[0] == x / 8);
        CHECK(row[1] == x % 8);
        CHECK(row[2] == x / (lane + 1));  // a divisor of its own in each lane
        CHECK(row[3] == 0xffffffffu);     // by zero: all ones, and the dividend as remainder
        CHECK(row[4] == x);
        CHECK(row[5] == (lane + 1 < 17 ? x % 4 : x / 3));  // each path's lanes share their divisor
        CHECK(row[6] == 0);                                // shifted past the width
        CHECK(row[7] == 0);
        CHECK(row[8] == (x << 31));
        CHECK(row[9] == (x & 1));
        CHECK(row[10] == ((x << 7) & 0xffffu));
        const uint64_t wide = (uint64_t{x} << 40) >> 8;
        CHECK(row[11] == static_cast<uint32_t>(wide));
        CHECK(row[12] == static_cast<uint32_t>(wide >> 32));
        CHECK(row[13] == (lane + 1 < 17 ? 0u : 1u));  // the pair's second predicate is the negation
    }
}

TEST_CASE("fns, lop3, dp2a, vabsdiff4, 16-bit halves, and min/max with .NaN and .relu")
{
    ptx::Module m = parse_ptx(R"(
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<40>;
  .reg .f32 %f<4>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [out];
  fns.b32 %r1, 0xaaaaaaaa, 3, 1;
  fns.b32 %r2, 0xaaaaaaaa, 3, -1;
  fns.b32 %r3, 0xaaaaaaaa, 2, 1;
  fns.b32 %r4, 0xaaaaaaaa, 2, -1;
  fns.b32 %r5, 0xaaaaaaaa, 0, 3;
  fns.b32 %r6, 1, 5, 2;
  fns.b32 %r7, 0xaaaaaaaa, 2, 0;
  lop3.b32 %r8, 0xF0F0F0F0, 0xCCCCCCCC, 0xAAAAAAAA, 0xE8;
  lop3.b32 %r9, 0xF0F0F0F0, 0xCCCCCCCC, 0xAAAAAAAA, 0x96;
  mov.u32 %r20, 0xFFFE0003;
  mov.u32 %r21, 0x0405FF02;
  dp2a.lo.s32.s32 %r10, %r20, %r21, 10;
  dp2a.hi.s32.s32 %r11, %r20, %r21, 10;
  dp2a.lo.u32.u32 %r12, %r20, %r21, 10;
  dp2a.hi.u32.u32 %r13, %r20, %r21, 10;
  mov.u32 %r22, 0x10FF0380;
  mov.u32 %r23, 0x20010480;
  vabsdiff4.u32.u32.u32 %r14, %r22, %r23, 0;
  vabsdiff4.u32.u32.u32.add %r15, %r22, %r23, 5;
  vabsdiff4.s32.s32.s32 %r16, %r22, %r23, 0;
  add.s16x2 %r17, 0x7FFF0001, 0x00010002;
  min.s16x2 %r18, 0x8000FFFF, 0x00010002;
  min.u16x2 %r19, 0x8000FFFF, 0x00010002;
  sub.u16x2 %r24, 0, 0x00010001;
  max.relu.s16x2 %r25, 0x8000FFFF, 0xFFFEFFFD;
  max.relu.s32 %r26, -5, -3;
  mov.b32 %f1, 0x7fc00001;
  max.NaN.f32 %f2, %f1, 0f3F800000;
  max.f32 %f3, %f1, 0f3F800000;
  mov.b32 %r27, %f2;
  mov.b32 %r28, %f3;
  st.global.v4.u32 [%rd1], {%r1, %r2, %r3, %r4};
  st.global.v4.u32 [%rd1+16], {%r5, %r6, %r7, %r8};
  st.global.v4.u32 [%rd1+32], {%r9, %r10, %r11, %r12};
  st.global.v4.u32 [%rd1+48], {%r13, %r14, %r15, %r16};
  st.global.v4.u32 [%rd1+64], {%r17, %r18, %r19, %r24};
  st.global.v4.u32 [%rd1+80], {%r25, %r26, %r27, %r28};
  ret;
}
)");
    REQUIRE(m.kernels[0].error.empty());
    DeviceBuffer out(96);
    LaunchResult r = run_kernel(m.kernels[0], {1, 1, 1}, {1, 1, 1}, {out.address()});
    REQUIRE(r.error == cudaSuccess);
    const uint32_t* v = out.as<uint32_t>();
    // fns: the PTX ISA's own examples, the third set bit from 0, none past bit 0, offset 0 on a clear bit.
    CHECK(v[0] == 3);
    CHECK(v[1] == 3);
    CHECK(v[2] == 3);
    CHECK(v[3] == 1);
    CHECK(v[4] == 5);
    CHECK(v[5] == 0xffffffffu);
    CHECK(v[6] == 0xffffffffu);
    // lop3 of the three canonical operands gives its truth table back in every byte.
    CHECK(v[7] == 0xE8E8E8E8u);
    CHECK(v[8] == 0x96969696u);
    // dp2a: halves 3 and -2 (or 65534) with bytes 2, -1 (or 255), 5, 4, plus 10.
    CHECK(v[9] == 18);
    CHECK(v[10] == 17);
    CHECK(v[11] == 3u * 2 + 65534u * 255 + 10);
    CHECK(v[12] == 3u * 5 + 65534u * 4 + 10);
    // vabsdiff4: byte-wise |a - b|, their sum plus c, and the signed bytes.
    CHECK(v[13] == 0x10FE0100u);
    CHECK(v[14] == 0 + 1 + 254 + 16 + 5);
    CHECK(v[15] == 0x10020100u);
    // Halves wrap, compare signed or unsigned, and .relu clamps each at zero.
    CHECK(v[16] == 0x80000003u);
    CHECK(v[17] == 0x8000FFFFu);
    CHECK(v[18] == 0x00010002u);
    CHECK(v[19] == 0xFFFFFFFFu);
    CHECK(v[20] == 0u);
    CHECK(v[21] == 0u);
    CHECK(v[22] == 0x7fffffffu);  // .NaN: the canonical NaN
    CHECK(v[23] == 0x3F800000u);  // without it, the other operand
}

TEST_CASE("bf16 fma rounds once: a tie that the addend breaks stays broken")
{
    // 7 x 37 = 259 needs nine bits: a tie between the bfloat16 values 258 and 260. An addend of
    // -2^-100 puts the exact result below the tie (258); fma in double alone would lose it and round
    // the tie to even (260).
    ptx::Module m = parse_ptx(R"(
.visible .entry k(.param .u64 out)
{
  .reg .b16 %h<8>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [out];
  mov.b16 %h1, 0x40E0;
  mov.b16 %h2, 0x4214;
  fma.rn.bf16 %h3, %h1, %h2, 0x8D80;
  fma.rn.bf16 %h4, %h1, %h2, 0x0D80;
  fma.rn.bf16 %h5, %h1, %h2, 0x0000;
  st.global.v4.u16 [%rd1], {%h3, %h4, %h5, %h1};
  ret;
}
)");
    REQUIRE(m.kernels[0].error.empty());
    DeviceBuffer out(8);
    LaunchResult r = run_kernel(m.kernels[0], {1, 1, 1}, {1, 1, 1}, {out.address()});
    REQUIRE(r.error == cudaSuccess);
    const uint16_t* v = out.as<uint16_t>();
    CHECK(v[0] == 0x4381);  // 258
    CHECK(v[1] == 0x4382);  // 260
    CHECK(v[2] == 0x4382);  // the exact tie: to even
}

TEST_CASE("an unsupported form stops naming the instruction and its source line")
{
    ptx::Module m = parse_ptx(R"(
.visible .entry k()
{
  .reg .b16 %h<3>;
  .loc 1 7 3
  mov.b16 %h1, 0x3C00;
  .loc 1 9 5
  ex2.approx.f16 %h2, %h1;
  ret;
}
.file 1 "/home/student/kernels/halves.cu"
)");
    REQUIRE(m.kernels[0].error.empty());
    LaunchResult r = run_kernel(m.kernels[0], {1, 1, 1}, {32, 1, 1}, {});
    INFO(r.message);
    CHECK(r.error == cudaErrorIllegalInstruction);
    CHECK(r.message.find("unsupported 16-bit floating-point type for 'ex2' in kernel k at halves.cu:9 (PTX line ") !=
          std::string::npos);
}

TEST_CASE(".ftz: f32 subnormal inputs and results are zeros of the same sign")
{
    // 0x00400000 is 2^-127, a subnormal; 0x3f000000 is 0.5.
    ptx::Module m = parse_ptx(R"(
.visible .entry k(.param .u64 out)
{
  .reg .pred %p<3>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [out];
  mov.b32 %r1, 0x00400000;
  mul.f32 %r2, %r1, 0f3F000000;
  mul.ftz.f32 %r3, %r1, 0f3F000000;
  add.ftz.f32 %r4, %r1, 0f00000000;
  neg.f32 %r5, %r1;
  fma.rn.ftz.f32 %r6, %r5, 0f3F000000, 0f80000000;
  ex2.approx.f32 %r7, 0fC3000000;
  ex2.approx.ftz.f32 %r8, 0fC3000000;
  setp.gt.f32 %p1, %r1, 0f00000000;
  setp.gt.ftz.f32 %p2, %r1, 0f00000000;
  selp.u32 %r9, 1, 0, %p1;
  selp.u32 %r10, 1, 0, %p2;
  st.global.v4.u32 [%rd1], {%r2, %r3, %r4, %r6};
  st.global.v4.u32 [%rd1+16], {%r7, %r8, %r9, %r10};
  ret;
}
)");
    REQUIRE(m.kernels[0].error.empty());
    DeviceBuffer out(32);
    LaunchResult r = run_kernel(m.kernels[0], {1, 1, 1}, {1, 1, 1}, {out.address()});
    REQUIRE(r.error == cudaSuccess);
    const uint32_t* v = out.as<uint32_t>();
    CHECK(v[0] == 0x00200000u);  // without .ftz: 2^-128, still subnormal
    CHECK(v[1] == 0u);           // the input flushed
    CHECK(v[2] == 0u);
    CHECK(v[3] == 0x80000000u);  // -2^-127 flushed to -0; -0 x 0.5 + -0 = -0
    CHECK(v[4] == 0x00200000u);  // ex2(-128) = 2^-128, subnormal
    CHECK(v[5] == 0u);
    CHECK(v[6] == 1u);
    CHECK(v[7] == 0u);
}

TEST_CASE("a whole warp's loads: lane after lane, backwards, one address, spread, and past the end")
{
    ptx::Module m = parse_ptx(R"(
.visible .entry vectors(.param .u64 in, .param .u64 out, .param .u64 start, .param .u64 stride)
{
  .reg .b32 %r<6>;
  .reg .b64 %rd<10>;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  ld.param.u64 %rd3, [start];
  ld.param.u64 %rd4, [stride];
  mov.u32 %r1, %laneid;
  cvt.u64.u32 %rd5, %r1;
  mul.lo.s64 %rd6, %rd5, %rd4;
  add.s64 %rd6, %rd6, %rd3;
  add.s64 %rd7, %rd1, %rd6;
  ld.global.v4.u32 {%r2, %r3, %r4, %r5}, [%rd7];
  mul.wide.u32 %rd8, %r1, 16;
  add.s64 %rd9, %rd2, %rd8;
  st.global.v4.u32 [%rd9], {%r2, %r3, %r4, %r5};
  ret;
}
.visible .entry signed_halves(.param .u64 in, .param .u64 out)
{
  .reg .b32 %r<2>;
  .reg .s32 %s<2>;
  .reg .b64 %rd<7>;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  mov.u32 %r1, %laneid;
  mul.wide.u32 %rd3, %r1, 2;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.s16 %s1, [%rd4];
  mul.wide.u32 %rd5, %r1, 4;
  add.s64 %rd6, %rd2, %rd5;
  st.global.u32 [%rd6], %s1;
  ret;
}
)");
    REQUIRE(m.kernels[0].error.empty());
    REQUIRE(m.kernels[1].error.empty());
    constexpr uint32_t kWords = 32 * 4 * 2;
    DeviceBuffer in(kWords * 4);
    DeviceBuffer out(32 * 16);
    std::vector<uint32_t> words(kWords);
    for (uint32_t i = 0; i < kWords; ++i)
        words[i] = 1000 + i;
    REQUIRE(cudaMemcpy(in.data, words.data(), kWords * 4, cudaMemcpyHostToDevice) == cudaSuccess);
    struct Shape {
        std::string name;
        int64_t start, stride;
    };
    for (const Shape& s : {Shape{"lane after lane", 0, 16}, Shape{"backwards", 31 * 16, -16},
                           Shape{"one address", 64, 0}, Shape{"spread", 16, 32}}) {
        CAPTURE(s.name);
        LaunchResult r =
            run_kernel(m.kernels[0], {1, 1, 1}, {32, 1, 1},
                       {in.address(), out.address(), static_cast<uint64_t>(s.start), static_cast<uint64_t>(s.stride)});
        INFO(r.message);
        REQUIRE(r.error == cudaSuccess);
        for (int lane = 0; lane < 32; ++lane)
            for (int i = 0; i < 4; ++i) {
                const auto first_word = static_cast<uint32_t>((s.start + lane * s.stride) / 4);
                CHECK(out.as<uint32_t>()[lane * 4 + i] == 1000 + first_word + static_cast<uint32_t>(i));
            }
    }

    // Lane after lane from 16 bytes before the end: the last lane reads past it.
    LaunchResult past = run_kernel(m.kernels[0], {1, 1, 1}, {32, 1, 1},
                                   {in.address(), out.address(), uint64_t{kWords * 4 - 31 * 16 - 8}, 16});
    CHECK(past.error != cudaSuccess);  // misaligned by 8: the alignment is checked first
    past = run_kernel(m.kernels[0], {1, 1, 1}, {32, 1, 1},
                      {in.address(), out.address(), uint64_t{kWords * 4 - 31 * 16}, 16});
    CHECK(past.error == cudaErrorIllegalAddress);
    CHECK(past.message.find("Invalid __global__ read of size 16") != std::string::npos);
    CHECK(past.message.find("thread (31,0,0)") != std::string::npos);
    // Lane after lane, each 4 bytes off a 16-byte boundary.
    LaunchResult misaligned = run_kernel(m.kernels[0], {1, 1, 1}, {32, 1, 1}, {in.address(), out.address(), 4, 16});
    CHECK(misaligned.error == cudaErrorMisalignedAddress);
    CHECK(misaligned.message.find("thread (0,0,0)") != std::string::npos);

    // Halves lane after lane, sign-extended.
    std::vector<int16_t> halves(32);
    for (int i = 0; i < 32; ++i)
        halves[static_cast<size_t>(i)] = static_cast<int16_t>(i % 2 == 0 ? -i : i * 1000);
    REQUIRE(cudaMemcpy(in.data, halves.data(), 64, cudaMemcpyHostToDevice) == cudaSuccess);
    REQUIRE(run_kernel(m.kernels[1], {1, 1, 1}, {32, 1, 1}, {in.address(), out.address()}).error == cudaSuccess);
    for (int lane = 0; lane < 32; ++lane)
        CHECK(out.as<int32_t>()[lane] == (lane % 2 == 0 ? -lane : lane * 1000));
}

TEST_CASE("a warp adding to a line of words, one each: every lane updates its own word and sees its old value")
{
    // Lines of .u32 (wrapping around), .f32 and .u64 words in global memory, a red on a line, and
    // a line of shared words; one block, so the updates run as one warp's line.
    ptx::Module m = parse_ptx(R"(
.visible .entry lines(.param .u64 words, .param .u64 out)
{
  .reg .b32 %r<10>;
  .reg .f32 %f<3>;
  .reg .b64 %rd<12>;
  .shared .align 4 .b8 line[128];
  ld.param.u64 %rd1, [words];
  ld.param.u64 %rd2, [out];
  mov.u32 %r1, %laneid;
  add.u32 %r2, %r1, 1;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd1, %rd3;
  atom.global.add.u32 %r3, [%rd4], %r2;
  cvt.rn.f32.u32 %f1, %r2;
  atom.global.add.f32 %f2, [%rd4+128], %f1;
  mul.wide.u32 %rd5, %r1, 8;
  add.s64 %rd6, %rd1, %rd5;
  cvt.u64.u32 %rd7, %r2;
  shl.b64 %rd8, %rd7, 33;
  atom.global.add.u64 %rd9, [%rd6+256], %rd8;
  red.global.add.u32 [%rd4+512], %r2;
  mov.u32 %r4, line;
  shl.b32 %r5, %r1, 2;
  add.u32 %r6, %r4, %r5;
  mul.lo.u32 %r7, %r1, 7;
  st.shared.u32 [%r6], %r7;
  atom.shared.add.u32 %r8, [%r6], %r2;
  ld.shared.u32 %r9, [%r6];
  mul.wide.u32 %rd10, %r1, 24;
  add.s64 %rd11, %rd2, %rd10;
  st.global.u32 [%rd11], %r3;
  st.global.f32 [%rd11+4], %f2;
  st.global.u64 [%rd11+8], %rd9;
  st.global.u32 [%rd11+16], %r8;
  st.global.u32 [%rd11+20], %r9;
  ret;
}
)");
    REQUIRE(m.kernels[0].error.empty());
    struct Words {
        uint32_t u32[32];
        float f32[32];
        uint64_t u64[32];
        uint32_t reduced[32];
    } initial{};
    for (uint32_t l = 0; l < 32; ++l) {
        initial.u32[l] = 0xfffffff0u + l;
        initial.f32[l] = 0.5f * static_cast<float>(l);
        initial.u64[l] = uint64_t{l} << 40;
        initial.reduced[l] = 100 * l;
    }
    DeviceBuffer words(sizeof(Words));
    DeviceBuffer out(32 * 24);
    REQUIRE(cudaMemcpy(words.data, &initial, sizeof initial, cudaMemcpyHostToDevice) == cudaSuccess);
    LaunchResult r = run_kernel(m.kernels[0], {1, 1, 1}, {32, 1, 1}, {words.address(), out.address()});
    INFO(r.message);
    REQUIRE(r.error == cudaSuccess);
    const Words& after = *words.as<Words>();
    for (uint32_t l = 0; l < 32; ++l) {
        CAPTURE(l);
        const unsigned char* seen = out.as<unsigned char>() + l * 24;
        uint32_t old32 = 0, old_shared = 0, new_shared = 0;
        float old_f32 = 0;
        uint64_t old64 = 0;
        std::memcpy(&old32, seen, 4);
        std::memcpy(&old_f32, seen + 4, 4);
        std::memcpy(&old64, seen + 8, 8);
        std::memcpy(&old_shared, seen + 16, 4);
        std::memcpy(&new_shared, seen + 20, 4);
        CHECK(old32 == initial.u32[l]);
        CHECK(after.u32[l] == initial.u32[l] + l + 1);  // wraps from lane 8 on
        CHECK(old_f32 == initial.f32[l]);
        CHECK(after.f32[l] == initial.f32[l] + static_cast<float>(l + 1));
        CHECK(old64 == initial.u64[l]);
        CHECK(after.u64[l] == initial.u64[l] + (uint64_t{l + 1} << 33));
        CHECK(after.reduced[l] == initial.reduced[l] + l + 1);
        CHECK(old_shared == 7 * l);
        CHECK(new_shared == 7 * l + l + 1);
    }
}

TEST_CASE("lanes adding to one counter: each sees the sum of the lanes before it, in lane order")
{
    ptx::Module m = parse_ptx(R"(
.visible .entry counters(.param .u64 counters, .param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<5>;
  .reg .b64 %rd<10>;
  ld.param.u64 %rd1, [counters];
  ld.param.u64 %rd2, [out];
  mov.u32 %r1, %laneid;
  add.u32 %r2, %r1, 1;
  atom.global.add.u32 %r3, [%rd1], %r2;
  cvt.u64.u32 %rd3, %r1;
  sub.s64 %rd4, 0, %rd3;
  atom.global.add.s64 %rd5, [%rd1+8], %rd4;
  setp.lt.u32 %p1, %r1, 20;
  @%p1 red.global.add.u32 [%rd1+16], %r2;
  mul.wide.u32 %rd6, %r1, 16;
  add.s64 %rd7, %rd2, %rd6;
  st.global.u32 [%rd7], %r3;
  st.global.u64 [%rd7+8], %rd5;
  ret;
}
)");
    REQUIRE(m.kernels[0].error.empty());
    DeviceBuffer counters(24);
    DeviceBuffer out(32 * 16);
    const uint32_t start32 = 0xffffff00u;  // wraps around part-way through the warp
    const int64_t start64 = 5;
    std::vector<unsigned char> initial(24, 0);
    std::memcpy(initial.data(), &start32, 4);
    std::memcpy(initial.data() + 8, &start64, 8);
    REQUIRE(cudaMemcpy(counters.data, initial.data(), initial.size(), cudaMemcpyHostToDevice) == cudaSuccess);
    LaunchResult r = run_kernel(m.kernels[0], {1, 1, 1}, {32, 1, 1}, {counters.address(), out.address()});
    INFO(r.message);
    REQUIRE(r.error == cudaSuccess);
    uint32_t seen32 = start32;
    int64_t seen64 = start64;
    for (uint32_t lane = 0; lane < 32; ++lane) {
        CAPTURE(lane);
        uint32_t old32 = 0;
        int64_t old64 = 0;
        std::memcpy(&old32, out.as<unsigned char>() + lane * 16, 4);
        std::memcpy(&old64, out.as<unsigned char>() + lane * 16 + 8, 8);
        CHECK(old32 == seen32);
        CHECK(old64 == seen64);
        seen32 += lane + 1;
        seen64 -= lane;
    }
    uint32_t total32 = 0, reduced = 0;
    int64_t total64 = 0;
    std::memcpy(&total32, counters.as<unsigned char>(), 4);
    std::memcpy(&total64, counters.as<unsigned char>() + 8, 8);
    std::memcpy(&reduced, counters.as<unsigned char>() + 16, 4);
    CHECK(total32 == seen32);
    CHECK(total64 == seen64);
    CHECK(reduced == 20 * 21 / 2);  // the 20 lanes the predicate leaves on
}
