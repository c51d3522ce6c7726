// Shared by the checker programs: report what the runtime says.
#pragma once
#include <cstdio>

inline void report(const char* what, cudaError_t e)
{
    std::printf("%s: %s (%s)\n", what, cudaGetErrorName(e), cudaGetErrorString(e));
}
