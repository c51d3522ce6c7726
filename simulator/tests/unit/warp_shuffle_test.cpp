// shfl.sync in its four modes, with the lane or offset (b) and the clamp and segment mask (c) the
// same for every lane or each lane's own, against the PTX ISA's description of the instruction:
// the value each lane reads and the predicate that says whether it read another lane's.
#include <doctest/doctest.h>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "ptx_runner.hpp"

using namespace cudasim;
using namespace cudasim::test;

namespace {

enum class Mode { Up, Down, Bfly, Idx };
constexpr Mode kModes[] = {Mode::Up, Mode::Down, Mode::Bfly, Mode::Idx};

uint32_t value_of(int lane)
{
    return 1000 + 7 * static_cast<uint32_t>(lane);
}

struct Shuffled {
    uint32_t value;
    bool valid;
};

// The PTX ISA's shfl.sync: the lane j that `lane` reads, valid or not (then its own value).
Shuffled reference(Mode mode, int lane, uint32_t b, uint32_t c)
{
    const int offset = static_cast<int>(b & 31), clamp = static_cast<int>(c & 31);
    const int segment = static_cast<int>((c >> 8) & 31);
    const int max_lane = (lane & segment) | (clamp & ~segment);
    const int min_lane = lane & segment;
    int j = 0;
    bool valid = false;
    switch (mode) {
    case Mode::Up:
        j = lane - offset;
        valid = j >= max_lane;
        break;
    case Mode::Down:
        j = lane + offset;
        valid = j <= max_lane;
        break;
    case Mode::Bfly:
        j = lane ^ offset;
        valid = j <= max_lane;
        break;
    case Mode::Idx:
        j = min_lane | (offset & ~segment);
        valid = j <= max_lane;
        break;
    }
    return {value_of(valid ? j : lane), valid};
}

const char* kShuffles = R"(
.visible .entry shuffles(.param .u64 bs, .param .u64 cs, .param .u64 out)
{
  .reg .b32 %r<13>;
  .reg .pred %p<5>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [bs];
  ld.param.u64 %rd2, [cs];
  ld.param.u64 %rd3, [out];
  mov.u32 %r1, %laneid;
  mul.wide.u32 %rd4, %r1, 4;
  add.s64 %rd5, %rd1, %rd4;
  ld.global.u32 %r2, [%rd5];
  add.s64 %rd6, %rd2, %rd4;
  ld.global.u32 %r3, [%rd6];
  mad.lo.s32 %r4, %r1, 7, 1000;
  shfl.sync.up.b32 %r5|%p1, %r4, %r2, %r3, -1;
  shfl.sync.down.b32 %r6|%p2, %r4, %r2, %r3, -1;
  shfl.sync.bfly.b32 %r7|%p3, %r4, %r2, %r3, -1;
  shfl.sync.idx.b32 %r8|%p4, %r4, %r2, %r3, -1;
  selp.u32 %r9, 1, 0, %p1;
  selp.u32 %r10, 1, 0, %p2;
  selp.u32 %r11, 1, 0, %p3;
  selp.u32 %r12, 1, 0, %p4;
  mul.wide.u32 %rd7, %r1, 8;
  add.s64 %rd7, %rd3, %rd7;
  st.global.v2.u32 [%rd7], {%r5, %r9};
  st.global.v2.u32 [%rd7+256], {%r6, %r10};
  st.global.v2.u32 [%rd7+512], {%r7, %r11};
  st.global.v2.u32 [%rd7+768], {%r8, %r12};
  ret;
}
)";

}  // namespace

TEST_CASE("shfl.sync: each mode with b and c shared by the lanes or each lane's own")
{
    ptx::Module m = parse_ptx(kShuffles);
    REQUIRE(m.kernels[0].error.empty());
    DeviceBuffer bs(32 * 4), cs(32 * 4), out(4 * 32 * 8);
    std::mt19937 random(2024);
    const auto any_b = [&] { return static_cast<uint32_t>(random() % 40); };  // 32-39: only the low 5 bits count
    const auto any_c = [&] { return static_cast<uint32_t>(random() % 0x2000); };
    const auto check = [&](const std::string& what, const std::vector<uint32_t>& b, const std::vector<uint32_t>& c) {
        CAPTURE(what);
        REQUIRE(cudaMemcpy(bs.data, b.data(), 32 * 4, cudaMemcpyHostToDevice) == cudaSuccess);
        REQUIRE(cudaMemcpy(cs.data, c.data(), 32 * 4, cudaMemcpyHostToDevice) == cudaSuccess);
        const LaunchResult r =
            run_kernel(m.kernels[0], {1, 1, 1}, {32, 1, 1}, {bs.address(), cs.address(), out.address()});
        INFO(r.message);
        REQUIRE(r.error == cudaSuccess);
        for (int mode = 0; mode < 4; ++mode)
            for (int lane = 0; lane < 32; ++lane) {
                CAPTURE(mode);
                CAPTURE(lane);
                const size_t i = static_cast<size_t>(lane);
                const Shuffled expected = reference(kModes[mode], lane, b[i], c[i]);
                CHECK(out.as<uint32_t>()[(mode * 32 + lane) * 2] == expected.value);
                CHECK(out.as<uint32_t>()[(mode * 32 + lane) * 2 + 1] == (expected.valid ? 1u : 0u));
            }
    };
    // Shared by the lanes: the offsets and widths of __shfl*_sync (c: the segment mask 32 - width
    // in bits 8-12; the clamp 0 for up, 31 for the others), and other values.
    for (const uint32_t b : {0u, 1u, 5u, 16u, 31u, 37u})
        for (const uint32_t c : {0x1fu, 0x0u, 0x181fu, 0x1800u, 0x1e1fu, 0x1f00u, 0x0a13u})
            check("shared b " + std::to_string(b) + ", c " + std::to_string(c), std::vector<uint32_t>(32, b),
                  std::vector<uint32_t>(32, c));
    for (int round = 0; round < 20; ++round) {
        std::vector<uint32_t> b(32), c(32);
        const uint32_t one_b = any_b(), one_c = any_c();
        for (size_t lane = 0; lane < 32; ++lane) {
            b[lane] = any_b();
            c[lane] = any_c();
        }
        check("each lane's b and c", b, c);
        check("a shared b, each lane's c", std::vector<uint32_t>(32, one_b), c);
        check("each lane's b, a shared c", b, std::vector<uint32_t>(32, one_c));
    }
}
