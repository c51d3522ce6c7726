// Instructions that nvcc only emits for newer targets or that are easier to
// pin down in PTX than in CUDA C++.
#include <doctest/doctest.h>

#include "ptx_runner.hpp"

using namespace cudasim;
using namespace cudasim::test;

TEST_CASE("redux, prmt, signed bfe, slct and setp with a boolean combiner") {
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
}

TEST_CASE("sad and dp4a") {
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
