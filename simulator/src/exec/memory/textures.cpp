#include "exec/memory/textures.hpp"

#include <utility>

namespace cudasim {

TextureTable& TextureTable::instance()
{
    static TextureTable table;
    return table;
}

uint64_t TextureTable::create(const LinearTexture& texture)
{
    std::lock_guard lock(mutex_);
    const uint64_t handle = next_++;
    live_.emplace(handle, texture);
    return handle;
}

bool TextureTable::destroy(uint64_t handle)
{
    std::lock_guard lock(mutex_);
    return live_.erase(handle) != 0;
}

std::optional<LinearTexture> TextureTable::find(uint64_t handle) const
{
    std::lock_guard lock(mutex_);
    const auto found = live_.find(handle);
    if (found == live_.end())
        return std::nullopt;
    return found->second;
}

}  // namespace cudasim
