// Texture objects over linear device memory (cudaCreateTextureObject with cudaResourceTypeLinear),
// as tex.1d (tex1Dfetch) reads them: the runtime creates and destroys them, kernels look them up
// by handle.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>

namespace cudasim {

struct LinearTexture {
    enum class Kind : uint8_t { Signed, Unsigned, Float };
    uint64_t address = 0;       // the first element
    uint64_t elements = 0;      // sizeInBytes / the element's bytes
    uint8_t channels = 1;       // 1, 2 or 4 (x, y, z, w in that order)
    uint8_t channel_bytes = 4;  // 1, 2 or 4
    Kind kind = Kind::Signed;
    bool normalized = false;  // cudaReadModeNormalizedFloat: 8- and 16-bit integers read as [0, 1] or [-1, 1]
    uint32_t element_bytes() const { return uint32_t{channels} * channel_bytes; }
};

class TextureTable {
public:
    static TextureTable& instance();
    // A new handle for the texture (never 0, never reused).
    uint64_t create(const LinearTexture& texture);
    // False if `handle` names no live texture object.
    bool destroy(uint64_t handle);
    std::optional<LinearTexture> find(uint64_t handle) const;

private:
    mutable std::mutex mutex_;
    std::map<uint64_t, LinearTexture> live_;
    uint64_t next_ = 1;
};

}  // namespace cudasim
