// Texture objects over linear device memory, for tex1Dfetch: cudaCreateTextureObject with
// cudaResourceTypeLinear, and cudaDestroyTextureObject. Textures on CUDA arrays, mipmapped arrays
// and pitched 2-D memory are refused by name.
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>

#include <cuda_runtime_api.h>

#include "exec/memory/device_memory.hpp"
#include "exec/memory/textures.hpp"
#include "runtime/state.hpp"

namespace cudasim {
namespace {

constexpr uint64_t kTextureAlignment = 512;          // cudaDeviceProp::textureAlignment
constexpr uint64_t kMaxLinearElements = 1ull << 28;  // cudaDeviceProp::maxTexture1DLinear

// The channel layout of a format: 1, 2 or 4 channels of 8, 16 or 32 bits (floats: 16 or 32), all
// of one size. Empty `why` when it is one.
LinearTexture layout_of(const cudaChannelFormatDesc& d, std::string& why)
{
    LinearTexture t;
    const int bits[4] = {d.x, d.y, d.z, d.w};
    int channels = 0;
    while (channels < 4 && bits[channels] != 0)
        ++channels;
    for (int c = channels; c < 4; ++c)
        if (bits[c] != 0)
            why = "a channel of 0 bits before one of " + std::to_string(bits[c]);
    for (int c = 1; c < channels; ++c)
        if (bits[c] != bits[0])
            why = "channels of different sizes";
    if (channels == 0 || channels == 3)
        why = std::to_string(channels) + " channels (1, 2 or 4)";
    if (d.f == cudaChannelFormatKindFloat) {
        t.kind = LinearTexture::Kind::Float;
        if (bits[0] != 16 && bits[0] != 32)
            why = std::to_string(bits[0]) + "-bit float channels (16 or 32)";
    } else if (d.f == cudaChannelFormatKindSigned || d.f == cudaChannelFormatKindUnsigned) {
        t.kind = d.f == cudaChannelFormatKindSigned ? LinearTexture::Kind::Signed : LinearTexture::Kind::Unsigned;
        if (bits[0] != 8 && bits[0] != 16 && bits[0] != 32)
            why = std::to_string(bits[0]) + "-bit integer channels (8, 16 or 32)";
    } else {
        why = "a channel format kind other than signed, unsigned or float";
    }
    t.channels = static_cast<uint8_t>(channels);
    t.channel_bytes = static_cast<uint8_t>(bits[0] / 8);
    return t;
}

}  // namespace
}  // namespace cudasim

using namespace cudasim;

extern "C" {

cudaError_t cudaCreateTextureObject(cudaTextureObject_t* pTexObject, const cudaResourceDesc* pResDesc,
                                    const cudaTextureDesc* pTexDesc, const cudaResourceViewDesc* pResViewDesc)
{
    std::lock_guard lock(runtime().mutex);
    if (cudaError_t e = sticky_error())
        return e;
    const char* api = "cudaCreateTextureObject";
    if (!pTexObject || !pResDesc || !pTexDesc)
        return fail_call(api, cudaErrorInvalidValue, "pTexObject, pResDesc and pTexDesc may not be NULL");
    if (pResDesc->resType != cudaResourceTypeLinear)
        return fail_call(api, cudaErrorNotSupported,
                         "textures on CUDA arrays, mipmapped arrays and pitched 2-D memory are not modelled by the "
                         "cudasim CPU simulator (linear memory, for tex1Dfetch, is)");
    if (pResViewDesc)
        return fail_call(api, cudaErrorInvalidValue, "a resource view needs a CUDA array");
    const auto& linear = pResDesc->res.linear;
    std::string why;
    LinearTexture texture = layout_of(linear.desc, why);
    if (!why.empty())
        return fail_call(api, cudaErrorInvalidValue, "channel format with " + why);
    texture.address = reinterpret_cast<uint64_t>(linear.devPtr);
    texture.elements = linear.sizeInBytes / texture.element_bytes();
    if (!linear.devPtr || !DeviceMemory::instance().contains(linear.devPtr, linear.sizeInBytes))
        return fail_call(api, cudaErrorInvalidValue,
                         "devPtr is not " + std::to_string(linear.sizeInBytes) + " bytes of device memory");
    if (texture.address % kTextureAlignment != 0)
        return fail_call(api, cudaErrorInvalidValue, "devPtr is not aligned to textureAlignment (512 bytes)");
    if (texture.elements > kMaxLinearElements)
        return fail_call(api, cudaErrorInvalidValue,
                         std::to_string(texture.elements) + " elements, more than maxTexture1DLinear (2^28)");
    if (pTexDesc->readMode == cudaReadModeNormalizedFloat) {
        if (texture.kind == LinearTexture::Kind::Float || texture.channel_bytes == 4)
            return fail_call(api, cudaErrorInvalidNormSetting,
                             "cudaReadModeNormalizedFloat on a texture of floats or 32-bit integers");
        texture.normalized = true;
    }
    *pTexObject = TextureTable::instance().create(texture);
    return cudaSuccess;
}

cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texObject)
{
    std::lock_guard lock(runtime().mutex);
    if (cudaError_t e = sticky_error())
        return e;
    if (texObject != 0 && !TextureTable::instance().destroy(texObject))
        return fail_call("cudaDestroyTextureObject", cudaErrorInvalidValue, "not a live texture object");
    return cudaSuccess;
}

}  // extern "C"
