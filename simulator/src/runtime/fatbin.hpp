// Finds the PTX text inside the fat binary nvcc embeds in a host object, or
// inside a fat binary image loaded at run time.
#pragma once

#include <string>

namespace cudasim {

// `wrapper` is the __fatBinC_Wrapper_t passed to __cudaRegisterFatBinary.
// Returns the PTX of the highest virtual architecture present, or throws
// std::runtime_error explaining what is missing (e.g. compressed or
// SASS-only fat binaries).
std::string extract_ptx(const void* wrapper);

// The same for a fat binary image itself (what nvcc -fatbin writes, and what
// cudaLibraryLoadData may be given).
std::string extract_ptx_from_fat_binary(const void* image);

// Whether `image` starts with the fat binary magic (at least 4 readable bytes).
bool is_fat_binary(const void* image);

}  // namespace cudasim
