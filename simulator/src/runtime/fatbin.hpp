// Finds the PTX text inside the fat binary nvcc embeds in a host object.
#pragma once

#include <string>

namespace cudasim {

// `wrapper` is the __fatBinC_Wrapper_t passed to __cudaRegisterFatBinary.
// Returns the PTX of the highest virtual architecture present, or throws
// std::runtime_error explaining what is missing (e.g. compressed or
// SASS-only fat binaries).
std::string extractPtx(const void* wrapper);

}  // namespace cudasim
