// A memory instruction's addresses: read from the address register itself where the instruction
// adds no offset, so a load into that register must not change what the rest of the instruction
// (the counters) sees; and the allocations a warp's accesses alternate between, each checked as
// its own.
#include <doctest/doctest.h>

#include <cuda_runtime_api.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "ptx_runner.hpp"

using namespace cudasim;
using namespace cudasim::test;

namespace {

std::string hex(uint64_t address)
{
    char text[32];
    std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(address));
    return text;
}

}  // namespace

TEST_CASE("a load into its own address register: its requests are counted at the addresses it read from")
{
    // Each lane reads table[lane], the address of data[4 * (31 - lane)], into the register that
    // held &table[lane], then the word there: the first request is a line of 8-byte words (8
    // sectors), the second 32 words 32 bytes apart (32 sectors). The vector form writes the
    // address register as its second element.
    ptx::Module m = parse_ptx(R"(
.visible .entry chase(.param .u64 table, .param .u64 out)
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<7>;
  ld.param.u64 %rd1, [table];
  ld.param.u64 %rd2, [out];
  mov.u32 %r1, %laneid;
  mul.wide.u32 %rd3, %r1, 8;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.u64 %rd4, [%rd4];
  ld.global.u64 %rd4, [%rd4];
  add.s64 %rd5, %rd2, %rd3;
  st.global.u64 [%rd5], %rd4;
  ret;
}
.visible .entry chase_pair(.param .u64 table, .param .u64 out)
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<7>;
  ld.param.u64 %rd1, [table];
  ld.param.u64 %rd2, [out];
  mov.u32 %r1, %laneid;
  mul.wide.u32 %rd3, %r1, 16;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.v2.u64 {%rd6, %rd4}, [%rd4];
  ld.global.u64 %rd4, [%rd4];
  add.s64 %rd5, %rd2, %rd3;
  st.global.v2.u64 [%rd5], {%rd6, %rd4};
  ret;
}
)");
    REQUIRE(m.kernels[0].error.empty());
    REQUIRE(m.kernels[1].error.empty());
    DeviceBuffer table(32 * 16), data(128 * 8), out(32 * 16);
    std::vector<uint64_t> words(128);
    for (uint64_t j = 0; j < words.size(); ++j)
        words[j] = 5000 + j;
    REQUIRE(cudaMemcpy(data.data, words.data(), words.size() * 8, cudaMemcpyHostToDevice) == cudaSuccess);
    const auto target = [&](int lane) { return data.address() + 8 * 4 * static_cast<uint64_t>(31 - lane); };

    SUBCASE("a register")
    {
        std::vector<uint64_t> entries(32);
        for (int lane = 0; lane < 32; ++lane)
            entries[static_cast<size_t>(lane)] = target(lane);
        REQUIRE(cudaMemcpy(table.data, entries.data(), entries.size() * 8, cudaMemcpyHostToDevice) == cudaSuccess);
        const LaunchResult r = run_kernel(m.kernels[0], {1, 1, 1}, {32, 1, 1}, {table.address(), out.address()});
        INFO(r.message);
        REQUIRE(r.error == cudaSuccess);
        for (int lane = 0; lane < 32; ++lane)
            CHECK(out.as<uint64_t>()[lane] == 5000 + 4 * static_cast<uint64_t>(31 - lane));
        CHECK(r.counts.global_load_requests == 2);
        CHECK(r.counts.global_load_sectors == 8 + 32);
    }
    SUBCASE("the second element of a vector")
    {
        std::vector<uint64_t> entries(64);
        for (int lane = 0; lane < 32; ++lane) {
            entries[static_cast<size_t>(2 * lane)] = 7000 + static_cast<uint64_t>(lane);
            entries[static_cast<size_t>(2 * lane + 1)] = target(lane);
        }
        REQUIRE(cudaMemcpy(table.data, entries.data(), entries.size() * 8, cudaMemcpyHostToDevice) == cudaSuccess);
        const LaunchResult r = run_kernel(m.kernels[1], {1, 1, 1}, {32, 1, 1}, {table.address(), out.address()});
        INFO(r.message);
        REQUIRE(r.error == cudaSuccess);
        for (int lane = 0; lane < 32; ++lane) {
            CHECK(out.as<uint64_t>()[2 * lane] == 7000 + static_cast<uint64_t>(lane));
            CHECK(out.as<uint64_t>()[2 * lane + 1] == 5000 + 4 * static_cast<uint64_t>(31 - lane));
        }
        CHECK(r.counts.global_load_requests == 2);
        CHECK(r.counts.global_load_sectors == 16 + 32);  // 512 bytes of pairs, then the words
    }
}

TEST_CASE("accesses alternating between allocations: each checked for its bounds and its bytes never written")
{
    // Each lane reads a[lane], b[lane + b_skew] and a[lane + a_skew], then writes the sum to
    // out[lane]: three allocations in turn, then a fourth.
    ptx::Module m = parse_ptx(R"(
.visible .entry alternate(.param .u64 a, .param .u64 b, .param .u64 out, .param .u64 a_skew, .param .u64 b_skew)
{
  .reg .b32 %r<6>;
  .reg .b64 %rd<12>;
  ld.param.u64 %rd1, [a];
  ld.param.u64 %rd2, [b];
  ld.param.u64 %rd3, [out];
  ld.param.u64 %rd4, [a_skew];
  ld.param.u64 %rd5, [b_skew];
  mov.u32 %r1, %laneid;
  mul.wide.u32 %rd6, %r1, 4;
  add.s64 %rd7, %rd1, %rd6;
  ld.global.u32 %r2, [%rd7];
  add.s64 %rd8, %rd2, %rd6;
  add.s64 %rd8, %rd8, %rd5;
  ld.global.u32 %r3, [%rd8];
  add.s64 %rd9, %rd7, %rd4;
  ld.global.u32 %r4, [%rd9];
  add.s32 %r5, %r2, %r3;
  add.s32 %r5, %r5, %r4;
  add.s64 %rd10, %rd3, %rd6;
  st.global.u32 [%rd10], %r5;
  ret;
}
)");
    REQUIRE(m.kernels[0].error.empty());
    // a's first half written, all of b.
    DeviceBuffer a(64 * 4), b(64 * 4), out(32 * 4);
    std::vector<uint32_t> ones(32, 1), tens(64, 10);
    REQUIRE(cudaMemcpy(a.data, ones.data(), 32 * 4, cudaMemcpyHostToDevice) == cudaSuccess);
    REQUIRE(cudaMemcpy(b.data, tens.data(), 64 * 4, cudaMemcpyHostToDevice) == cudaSuccess);
    const auto run = [&](uint64_t a_skew, uint64_t b_skew) {
        return run_kernel(m.kernels[0], {1, 1, 1}, {32, 1, 1},
                          {a.address(), b.address(), out.address(), a_skew, b_skew});
    };

    const LaunchResult right = run(0, 0);
    INFO(right.message);
    REQUIRE(right.error == cudaSuccess);
    for (int lane = 0; lane < 32; ++lane)
        CHECK(out.as<uint32_t>()[lane] == 12);

    // a's second half, which nothing wrote, right after b was read.
    const LaunchResult unwritten = run(128, 0);
    CHECK(unwritten.error == cudaErrorLaunchFailure);
    CHECK(unwritten.message.find("Uninitialized __global__ memory read") != std::string::npos);
    CHECK(unwritten.message.find("byte 128 of the 256-byte allocation at " + hex(a.address())) != std::string::npos);

    // a's last lanes past its end, right after b was read; then b's, right after a was.
    const LaunchResult past_a = run(192, 0);
    CHECK(past_a.error == cudaErrorIllegalAddress);
    CHECK(past_a.message.find("past the end of the 256-byte allocation at " + hex(a.address())) != std::string::npos);
    CHECK(past_a.message.find("thread (16,0,0)") != std::string::npos);
    const LaunchResult past_b = run(0, 192);
    CHECK(past_b.error == cudaErrorIllegalAddress);
    CHECK(past_b.message.find("past the end of the 256-byte allocation at " + hex(b.address())) != std::string::npos);
    CHECK(past_b.message.find("thread (16,0,0)") != std::string::npos);
}
