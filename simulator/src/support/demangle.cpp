#include "support/demangle.hpp"

#include <cxxabi.h>

#include <cstdlib>

namespace cudasim {

std::string demangle(const std::string& name)
{
    int status = 0;
    char* text = abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status);
    if (status != 0 || !text)
        return name;
    std::string result = text;
    std::free(text);
    return result;
}

}  // namespace cudasim
