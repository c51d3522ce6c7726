// Large allocations: mapped page by page as they are written, so that a buffer of 2^31 ints that
// is mostly zeros (lesson 05's check past index 2^31) fits on a machine with less memory.
#include <doctest/doctest.h>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <vector>

namespace {

// This process's resident memory, from /proc/self/statm (pages), in bytes.
std::uint64_t resident_bytes()
{
    std::ifstream statm("/proc/self/statm");
    std::uint64_t total = 0;
    std::uint64_t resident = 0;
    statm >> total >> resident;
    return resident * 4096;
}

constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;

// ThreadSanitizer keeps shadow memory for every byte written, which the cleared pages do not give
// back: there the resident size says nothing about the simulator's own memory.
#if defined(__SANITIZE_THREAD__)
constexpr bool kShadowMemory = true;
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
constexpr bool kShadowMemory = true;
#else
constexpr bool kShadowMemory = false;
#endif
#else
constexpr bool kShadowMemory = false;
#endif

}  // namespace

TEST_CASE("a cleared 8 GiB allocation costs memory only where it is written")
{
    constexpr std::size_t bytes = std::size_t{8} << 30;
    const std::uint64_t before = resident_bytes();
    void* p = nullptr;
    REQUIRE(cudaMalloc(&p, bytes) == cudaSuccess);
    auto* base = static_cast<unsigned char*>(p);
    // Written through, then cleared again: the cleared pages go back.
    REQUIRE(cudaMemset(base, 0x5a, 64 * kMiB) == cudaSuccess);
    REQUIRE(cudaMemset(base + 1, 0, bytes - 2) == cudaSuccess);
    const std::vector<unsigned char> end = {1, 2, 3, 4};
    REQUIRE(cudaMemcpy(base + bytes - end.size(), end.data(), end.size(), cudaMemcpyHostToDevice) == cudaSuccess);
    if (!kShadowMemory)
        CHECK(resident_bytes() - before < 32 * kMiB);

    std::vector<unsigned char> back(8);
    REQUIRE(cudaMemcpy(back.data(), base, back.size(), cudaMemcpyDeviceToHost) == cudaSuccess);
    CHECK(back == std::vector<unsigned char>{0x5a, 0, 0, 0, 0, 0, 0, 0});  // the first byte was not cleared
    REQUIRE(cudaMemcpy(back.data(), base + bytes - back.size(), back.size(), cudaMemcpyDeviceToHost) == cudaSuccess);
    CHECK(back == std::vector<unsigned char>{0, 0, 0, 0, 1, 2, 3, 4});
    REQUIRE(cudaMemcpy(back.data(), base + (std::size_t{5} << 30) + 3, back.size(), cudaMemcpyDeviceToHost) ==
            cudaSuccess);
    CHECK(back == std::vector<unsigned char>(8, 0));
    REQUIRE(cudaFree(p) == cudaSuccess);
}

TEST_CASE("a memset of a large allocation writes every byte it names, and no other")
{
    constexpr std::size_t bytes = std::size_t{512} << 20;
    void* p = nullptr;
    REQUIRE(cudaMalloc(&p, bytes) == cudaSuccess);
    auto* base = static_cast<unsigned char*>(p);
    REQUIRE(cudaMemset(base, 0x7f, bytes) == cudaSuccess);
    REQUIRE(cudaMemset(base + 4095, 0, 8193) == cudaSuccess);  // a partial page at either end
    std::vector<unsigned char> back(8193 + 2);
    REQUIRE(cudaMemcpy(back.data(), base + 4094, back.size(), cudaMemcpyDeviceToHost) == cudaSuccess);
    CHECK(back.front() == 0x7f);
    CHECK(back.back() == 0x7f);
    for (std::size_t i = 1; i + 1 < back.size(); ++i)
        if (back[i] != 0)
            FAIL("byte " << 4094 + i << " holds " << int(back[i]) << ", not 0");
    REQUIRE(cudaFree(p) == cudaSuccess);
}
