// Readable kernel names for messages.
#pragma once

#include <string>

namespace cudasim {

// `_Z6reducePii` -> `reduce(int*, int)`; other names are returned as they are.
std::string demangle(const std::string& name);

}  // namespace cudasim
