// Instructions that nvcc only emits for newer targets or that are easier to
// pin down in PTX than in CUDA C++.
#include <doctest/doctest.h>

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
    ptx::Module m = parsePtx(R"(
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
    LaunchResult r = runKernel(m.kernels[0], {1, 1, 1}, {32, 1, 1}, {out.address()});
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
    CHECK(r.counts.warpReductions == 2);
    CHECK(r.counts.shuffles == 0);
}

TEST_CASE("sad and dp4a")
{
    ptx::Module m = parsePtx(R"(
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
    LaunchResult r = runKernel(m.kernels[0], {1, 1, 1}, {1, 1, 1}, {out.address()});
    REQUIRE(r.error == cudaSuccess);
    const uint32_t* v = out.as<uint32_t>();
    CHECK(v[0] == 112);                  // 100 + |-5 - 7|
    CHECK(v[1] == 8);                    // 1 + |3 - 10|
    CHECK(v[2] == 10 + 2 - 3 + 8 + 15);  // bytes (1,-1,2,3) . (2,3,4,5)
    CHECK(v[3] == 10 + 2 + 765 + 8 + 15);
}

TEST_CASE("bar.red counts, ANDs and ORs predicates across the block")
{
    ptx::Module m = parsePtx(R"(
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
    LaunchResult r = runKernel(m.kernels[0], {1, 1, 1}, {64, 1, 1}, {out.address()});
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
    ptx::Module m = parsePtx(R"(
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
    LaunchResult r = runKernel(m.kernels[0], {1, 1, 1}, {32, 1, 1}, {out.address()});
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
    ptx::Module m = parsePtx(R"(
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
    LaunchResult r = runKernel(m.kernels[0], {1, 1, 1}, {1, 1, 1}, {out.address()});
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
    ptx::Module m = parsePtx(R"(
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
    LaunchResult r = runKernel(m.kernels[0], {1, 1, 1}, {1, 1, 1}, {out.address()});
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
    ptx::Module m = parsePtx(R"(
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
    LaunchResult r = runKernel(m.kernels[0], {1, 1, 1}, {1, 1, 1}, {out.address()});
    REQUIRE(r.error == cudaSuccess);
    const uint32_t* v = out.as<uint32_t>();
    CHECK(v[0] == 0);
    CHECK(v[1] == 0);
    CHECK(v[2] == 0);
}
