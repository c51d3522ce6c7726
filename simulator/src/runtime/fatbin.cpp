// Layout observed with nvcc 13.0 (all little-endian):
//
//   wrapper  { u32 magic 0x466243b1; u32 version; const void* data; void* unused; }
//   data     { u32 magic 0xBA55ED50; u16 version; u16 header_size; u64 payload_size; }
//   then entries, back to back, until header_size + payload_size:
//   entry    { u16 kind (1 = PTX, 2 = ELF/SASS); u16 version; u32 header_size;
//              u64 payload_size; ... u32 arch at +28; u64 flags at +40 ... }
//   the entry's payload follows its header; PTX is NUL-padded text.
//
// Flags 0x2000 and 0x8000 mark compressed payloads (nvcc 13 compresses by
// default, setting 0x8000): compile with --no-compress.
#include "runtime/fatbin.hpp"

#include <cstdint>
#include <cstring>
#include <stdexcept>

namespace cudasim {
namespace {

constexpr uint32_t kWrapperMagic = 0x466243b1;
constexpr uint32_t kFatbinMagic = 0xBA55ED50;
constexpr uint16_t kKindPtx = 1;
constexpr uint64_t kFlagsCompressed = 0x2000 | 0x8000;

template <class T>
T read_at(const uint8_t* p, size_t offset)
{
    T v;
    std::memcpy(&v, p + offset, sizeof v);
    return v;
}

}  // namespace

bool is_fat_binary(const void* image)
{
    return read_at<uint32_t>(static_cast<const uint8_t*>(image), 0) == kFatbinMagic;
}

std::string extract_ptx(const void* wrapper)
{
    auto w = static_cast<const uint8_t*>(wrapper);
    if (read_at<uint32_t>(w, 0) != kWrapperMagic)
        throw std::runtime_error("not a fat binary wrapper");
    return extract_ptx_from_fat_binary(read_at<const uint8_t*>(w, 8));
}

std::string extract_ptx_from_fat_binary(const void* image)
{
    auto data = static_cast<const uint8_t*>(image);
    if (read_at<uint32_t>(data, 0) != kFatbinMagic)
        throw std::runtime_error("bad fat binary magic");
    uint16_t header_size = read_at<uint16_t>(data, 6);
    uint64_t payload = read_at<uint64_t>(data, 8);
    const uint8_t* entry = data + header_size;
    const uint8_t* end = entry + payload;
    std::string best;
    uint32_t best_arch = 0;
    bool saw_compressed = false;
    while (entry + 16 <= end) {
        uint16_t kind = read_at<uint16_t>(entry, 0);
        uint32_t entry_header = read_at<uint32_t>(entry, 4);
        uint64_t entry_payload = read_at<uint64_t>(entry, 8);
        uint32_t arch = read_at<uint32_t>(entry, 28);
        uint64_t flags = read_at<uint64_t>(entry, 40);
        if (entry_header == 0)
            break;
        if (kind == kKindPtx) {
            if (flags & kFlagsCompressed) {
                saw_compressed = true;
            } else if (arch >= best_arch) {
                const char* text = reinterpret_cast<const char*>(entry + entry_header);
                best.assign(text, strnlen(text, entry_payload));
                best_arch = arch;
            }
        }
        entry += entry_header + entry_payload;
    }
    if (best.empty()) {
        throw std::runtime_error(
            saw_compressed ? "the fat binary's PTX is compressed: compile with nvcc --no-compress"
                           : "the fat binary holds no PTX: compile with -gencode arch=compute_90,code=compute_90");
    }
    return best;
}

}  // namespace cudasim
