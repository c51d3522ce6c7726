// The fat-binary reader on hand-built containers with the layout nvcc 13
// produces (see runtime/fatbin.cpp).
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "runtime/fatbin.hpp"

namespace {

struct Entry {
    uint16_t kind;
    uint32_t arch;
    uint64_t flags;
    std::string payload;
};

template <class T>
void put(std::vector<uint8_t>& bytes, size_t offset, T value)
{
    std::memcpy(bytes.data() + offset, &value, sizeof value);
}

// Returns the fat binary; `wrapper` receives the structure nvcc passes to
// __cudaRegisterFatBinary.
std::vector<uint8_t> build(const std::vector<Entry>& entries, std::vector<uint8_t>& wrapper)
{
    const size_t entry_header = 0x50;
    std::vector<uint8_t> bytes(16);
    for (const Entry& e : entries) {
        size_t at = bytes.size();
        bytes.resize(at + entry_header + e.payload.size());
        put<uint16_t>(bytes, at, e.kind);
        put<uint32_t>(bytes, at + 4, entry_header);
        put<uint64_t>(bytes, at + 8, e.payload.size());
        put<uint32_t>(bytes, at + 28, e.arch);
        put<uint64_t>(bytes, at + 40, e.flags);
        std::memcpy(bytes.data() + at + entry_header, e.payload.data(), e.payload.size());
    }
    put<uint32_t>(bytes, 0, 0xBA55ED50);
    put<uint16_t>(bytes, 4, 1);
    put<uint16_t>(bytes, 6, 16);
    put<uint64_t>(bytes, 8, bytes.size() - 16);
    wrapper.assign(24, 0);
    put<uint32_t>(wrapper, 0, 0x466243b1);
    put<uint32_t>(wrapper, 4, 1);
    put<const uint8_t*>(wrapper, 8, bytes.data());
    return bytes;
}

}  // namespace

TEST_CASE("the PTX of the highest architecture is chosen, SASS is skipped")
{
    std::vector<uint8_t> wrapper;
    std::string ptx75 = ".version 9.0\n.target sm_75\n";
    std::string ptx90 = ".version 9.0\n.target sm_90\n";
    std::vector<uint8_t> fatbin = build({{2, 90, 0x11,
                                          "\x7f"
                                          "ELF...."},
                                         {1, 75, 0x11, ptx75 + std::string(8, '\0')},
                                         {1, 90, 0x11, ptx90}},
                                        wrapper);
    CHECK(cudasim::extract_ptx(wrapper.data()) == ptx90);
}

TEST_CASE("compressed or missing PTX is explained")
{
    std::vector<uint8_t> wrapper;
    std::vector<uint8_t> compressed = build({{1, 75, 0x8011, "xxxx"}}, wrapper);
    CHECK_THROWS_WITH_AS(cudasim::extract_ptx(wrapper.data()), doctest::Contains("--no-compress"), std::runtime_error);
    std::vector<uint8_t> sass_only = build({{2, 90, 0x11, "ELF"}}, wrapper);
    CHECK_THROWS_WITH_AS(cudasim::extract_ptx(wrapper.data()), doctest::Contains("compute_90"), std::runtime_error);
}
