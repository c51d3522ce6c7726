// Divergent warps must rejoin at the immediate post-dominator: after the
// join, %activemask sees the full warp again.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "ptx_runner.hpp"

using namespace cudasim;
using namespace cudasim::test;

namespace {

// Every kernel stores two u32 per thread: a value and a mask.
const char* kPrologue = R"(
  .reg .pred %p<4>;
  .reg .b32 %r<10>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd2, %r1, 8;
  add.s64 %rd3, %rd1, %rd2;
)";

std::string kernel(const std::string& name, const std::string& body)
{
    return ".visible .entry " + name + "(.param .u64 out)\n{\n" + kPrologue + body + "}\n";
}

}  // namespace

TEST_CASE("nested if/else: each path sees its lanes, the join sees all")
{
    ptx::Module m = parse_ptx(kernel("nested", R"(
  and.b32 %r2, %r1, 1;
  setp.eq.s32 %p1, %r2, 0;
  @%p1 bra EVEN;
  and.b32 %r3, %r1, 2;
  setp.eq.s32 %p2, %r3, 0;
  @%p2 bra ODD_A;
  activemask.b32 %r4;
  bra ODD_JOIN;
ODD_A:
  activemask.b32 %r4;
ODD_JOIN:
  bra JOIN;
EVEN:
  activemask.b32 %r4;
JOIN:
  activemask.b32 %r5;
  st.global.u32 [%rd3], %r4;
  st.global.u32 [%rd3+4], %r5;
  ret;
)"));
    REQUIRE(m.kernels[0].error.empty());
    DeviceBuffer out(32 * 8);
    LaunchResult r = run_kernel(m.kernels[0], {1, 1, 1}, {32, 1, 1}, {out.address()});
    REQUIRE(r.error == cudaSuccess);
    const uint32_t* v = out.as<uint32_t>();
    for (int t = 0; t < 32; ++t) {
        uint32_t expected = t % 2 == 0 ? 0x55555555u : (t & 2) ? 0x88888888u : 0x22222222u;
        CHECK(v[2 * t] == expected);
        CHECK(v[2 * t + 1] == 0xffffffffu);
    }
    CHECK(r.counts.divergent_branches == 2);
}

TEST_CASE("loop with a divergent break rejoins after the loop")
{
    ptx::Module m = parse_ptx(kernel("loop", R"(
  mov.u32 %r2, 0;
  and.b32 %r3, %r1, 7;
LOOP:
  setp.ge.u32 %p1, %r2, %r3;
  @%p1 bra DONE;
  add.s32 %r2, %r2, 1;
  setp.lt.u32 %p2, %r2, 100;
  @%p2 bra LOOP;
DONE:
  activemask.b32 %r5;
  st.global.u32 [%rd3], %r2;
  st.global.u32 [%rd3+4], %r5;
  ret;
)"));
    REQUIRE(m.kernels[0].error.empty());
    DeviceBuffer out(32 * 8);
    LaunchResult r = run_kernel(m.kernels[0], {1, 1, 1}, {32, 1, 1}, {out.address()});
    REQUIRE(r.error == cudaSuccess);
    const uint32_t* v = out.as<uint32_t>();
    for (uint32_t t = 0; t < 32; ++t) {
        CHECK(v[2 * t] == (t & 7));
        CHECK(v[2 * t + 1] == 0xffffffffu);
    }
}

TEST_CASE("divergent early exit: the remaining lanes continue together")
{
    ptx::Module m = parse_ptx(kernel("early", R"(
  setp.ge.u32 %p1, %r1, 20;
  @%p1 bra EXIT;
  and.b32 %r2, %r1, 1;
  setp.eq.s32 %p2, %r2, 0;
  @%p2 bra SKIP;
  add.s32 %r1, %r1, 100;
SKIP:
  activemask.b32 %r5;
  st.global.u32 [%rd3], %r1;
  st.global.u32 [%rd3+4], %r5;
EXIT:
  ret;
)"));
    DeviceBuffer out(32 * 8);
    std::memset(out.data, 0, 32 * 8);
    LaunchResult r = run_kernel(m.kernels[0], {1, 1, 1}, {32, 1, 1}, {out.address()});
    REQUIRE(r.error == cudaSuccess);
    const uint32_t* v = out.as<uint32_t>();
    for (uint32_t t = 0; t < 32; ++t) {
        CHECK(v[2 * t] == (t >= 20 ? 0 : t % 2 ? t + 100 : t));
        CHECK(v[2 * t + 1] == (t >= 20 ? 0 : 0x000fffffu));
    }
}

TEST_CASE("threads that returned count as arrived at a later barrier")
{
    ptx::Module m = parse_ptx(kernel("exit_then_barrier", R"(
  setp.ge.u32 %p1, %r1, 40;
  @%p1 bra EXIT;
  bar.sync 0;
  activemask.b32 %r5;
  st.global.u32 [%rd3+4], %r5;
EXIT:
  ret;
)"));
    DeviceBuffer out(64 * 8);
    std::memset(out.data, 0, 64 * 8);
    LaunchResult r = run_kernel(m.kernels[0], {1, 1, 1}, {64, 1, 1}, {out.address()});
    REQUIRE(r.error == cudaSuccess);
    const uint32_t* v = out.as<uint32_t>();
    CHECK(v[1] == 0xffffffffu);
    CHECK(v[2 * 33 + 1] == 0xffu);
    CHECK(v[2 * 50 + 1] == 0);
}

TEST_CASE("__syncthreads on both sides of an if/else acts as one barrier")
{
    ptx::Module m = parse_ptx(kernel("both_sides", R"(
  and.b32 %r2, %r1, 1;
  setp.eq.s32 %p1, %r2, 0;
  @%p1 bra EVEN;
  bar.sync 0;
  bra JOIN;
EVEN:
  bar.sync 0;
JOIN:
  activemask.b32 %r5;
  st.global.u32 [%rd3+4], %r5;
  ret;
)"));
    DeviceBuffer out(64 * 8);
    LaunchResult r = run_kernel(m.kernels[0], {1, 1, 1}, {64, 1, 1}, {out.address()});
    REQUIRE(r.error == cudaSuccess);
    CHECK(out.as<uint32_t>()[1] == 0xffffffffu);
}
