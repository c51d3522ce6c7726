// Shared by the corpus programs: abort with the CUDA error's name.
#pragma once
#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                        \
    do {                                                                   \
        cudaError_t err_ = (call);                                         \
        if (err_ != cudaSuccess) {                                         \
            std::printf("%s failed: %s\n", #call, cudaGetErrorName(err_)); \
            std::exit(1);                                                  \
        }                                                                  \
    } while (0)

// Frees device (or managed) allocations, checking each call.
template <class... Pointers>
void free_device(Pointers*... pointers)
{
    for (void* pointer : {static_cast<void*>(pointers)...})
        CHECK(cudaFree(pointer));
}
