// Libraries loaded at run time (cudaLibraryLoadData and friends): a fat
// binary image or PTX text whose kernels are launched through cudaKernel_t
// handles, the way a program loads device code it did not link.
#include <cstring>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <cuda_runtime_api.h>

#include "ptx/ir.hpp"
#include "runtime/fatbin.hpp"
#include "runtime/state.hpp"

using namespace cudasim;

namespace {

Library* find_library(cudaLibrary_t handle)
{
    for (auto& library : runtime().libraries)
        if (reinterpret_cast<cudaLibrary_t>(library.get()) == handle)
            return library.get();
    return nullptr;
}

}  // namespace

extern "C" {

cudaError_t cudaLibraryLoadData(cudaLibrary_t* library, const void* code, cudaJitOption*, void**, unsigned int,
                                cudaLibraryOption*, void**, unsigned int)
{
    std::lock_guard lock(runtime().mutex);
    if (cudaError_t e = sticky_error())
        return e;
    if (!library || !code)
        return fail_call("cudaLibraryLoadData", cudaErrorInvalidValue, "library or code is NULL");
    auto binary = std::make_unique<FatBinary>();
    try {
        // A fat binary (nvcc -fatbin) or NUL-terminated PTX text (nvcc -ptx); cubins carry no PTX.
        binary->ptx =
            is_fat_binary(code) ? extract_ptx_from_fat_binary(code) : std::string(static_cast<const char*>(code));
    } catch (const std::exception& e) {
        return fail_call("cudaLibraryLoadData", cudaErrorInvalidPtx, e.what());
    }
    if (binary->ptx.find(".entry") == std::string::npos && binary->ptx.find(".version") == std::string::npos)
        return fail_call("cudaLibraryLoadData", cudaErrorInvalidPtx, "the image is neither a fat binary nor PTX text");
    ensure_loaded(*binary);
    if (!binary->module)
        return fail_call("cudaLibraryLoadData", cudaErrorInvalidPtx, binary->load_error);
    auto entry = std::make_unique<Library>();
    entry->binary = binary.get();
    runtime().binaries.push_back(std::move(binary));
    runtime().libraries.push_back(std::move(entry));
    *library = reinterpret_cast<cudaLibrary_t>(runtime().libraries.back().get());
    return cudaSuccess;
}

// Kernels stay registered, as after __cudaUnregisterFatBinary: a captured
// graph may still hold launches of them.
cudaError_t cudaLibraryUnload(cudaLibrary_t library)
{
    std::lock_guard lock(runtime().mutex);
    if (!find_library(library))
        return fail_call("cudaLibraryUnload", cudaErrorInvalidResourceHandle, "unknown library");
    return cudaSuccess;
}

cudaError_t cudaLibraryGetKernel(cudaKernel_t* kernel, cudaLibrary_t handle, const char* name)
{
    std::lock_guard lock(runtime().mutex);
    if (!kernel || !name)
        return fail_call("cudaLibraryGetKernel", cudaErrorInvalidValue, "kernel or name is NULL");
    Library* library = find_library(handle);
    if (!library)
        return fail_call("cudaLibraryGetKernel", cudaErrorInvalidResourceHandle, "unknown library");
    // No message: asking for a kernel that may be absent is how a program finds out.
    if (!library->binary->module->find_kernel(name))
        return record_error(cudaErrorSymbolNotFound);
    auto& handle_of = library->kernel_handles[name];
    if (!handle_of) {
        handle_of = std::make_unique<char>();
        FunctionEntry entry;
        entry.binary = library->binary;
        entry.name = name;
        runtime().functions[handle_of.get()] = entry;
    }
    *kernel = reinterpret_cast<cudaKernel_t>(handle_of.get());
    return cudaSuccess;
}

cudaError_t cudaLibraryGetGlobal(void** dptr, size_t* bytes, cudaLibrary_t handle, const char* name)
{
    std::lock_guard lock(runtime().mutex);
    if ((!dptr && !bytes) || !name)
        return fail_call("cudaLibraryGetGlobal", cudaErrorInvalidValue, "dptr and bytes are both NULL, or name is");
    Library* library = find_library(handle);
    if (!library)
        return fail_call("cudaLibraryGetGlobal", cudaErrorInvalidResourceHandle, "unknown library");
    const ptx::Variable* variable = library->binary->module->find_variable(name);
    if (!variable)
        return record_error(cudaErrorSymbolNotFound);
    if (dptr)
        *dptr = variable->storage;
    if (bytes)
        *bytes = variable->size;
    return cudaSuccess;
}

cudaError_t cudaFuncGetParamInfo(const void* func, size_t paramIndex, size_t* paramOffset, size_t* paramSize)
{
    std::lock_guard lock(runtime().mutex);
    const auto [k, entry, error] = kernel_for_call("cudaFuncGetParamInfo", func);
    if (!k)
        return error;
    // Past the last parameter: the answer a program uses to count them.
    if (paramIndex >= k->params.size())
        return record_error(cudaErrorInvalidValue);
    if (paramOffset)
        *paramOffset = k->params[paramIndex].offset;
    if (paramSize)
        *paramSize = k->params[paramIndex].size;
    return cudaSuccess;
}

}  // extern "C"
