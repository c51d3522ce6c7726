#include "runtime/state.hpp"

#include <cstdio>
#include <exception>
#include <utility>

#include <cudasim/faults.hpp>

#include "exec/memory/device_memory.hpp"
#include "ptx/parser.hpp"
#include "runtime/fatbin.hpp"

namespace cudasim {

RuntimeState& runtime()
{
    static RuntimeState* state = new RuntimeState;  // never destroyed: atexit hooks still use it
    return *state;
}

cudaError_t recordError(cudaError_t e)
{
    if (e != cudaSuccess)
        runtime().lastError = e;
    return e;
}

cudaError_t failCall(const char* api, cudaError_t e, const std::string& why)
{
    std::fprintf(stderr, "cudasim: %s failed: %s (%s)\n", api, cudaGetErrorName(e), why.c_str());
    return recordError(e);
}

cudaError_t stickyError()
{
    return runtime().stickyError;
}

DeviceFaultReport lastDeviceFault()
{
    std::lock_guard lock(runtime().mutex);
    return {static_cast<int>(runtime().faultError), runtime().faultMessage};
}

cudaError_t synchronizeWithDevice()
{
    RuntimeState& r = runtime();
    if (r.pendingFault != cudaSuccess) {
        r.stickyError = r.pendingFault;
        r.lastError = r.pendingFault;
        r.pendingFault = cudaSuccess;
    }
    return r.stickyError;
}

void ensureLoaded(FatBinary& binary)
{
    if (binary.loaded)
        return;
    binary.loaded = true;
    try {
        if (binary.wrapper)
            binary.ptx = extractPtx(binary.wrapper);  // else loaded at run time, PTX already set
        binary.module = std::make_unique<ptx::Module>(
            ptx::parseModule(binary.ptx, [](const std::string& name, uint64_t size, uint32_t) {
                return static_cast<uint8_t*>(DeviceMemory::instance().allocate(size, true, name));
            }));
    } catch (const std::exception& e) {
        binary.loadError = e.what();
        return;
    }
    for (const auto& [hostPointer, name] : binary.managed) {
        if (const ptx::Variable* var = binary.module->findVariable(name)) {
            *hostPointer = var->storage;
            runtime().managedAllocations.insert(var->storage);  // memory cudaMemAdvise may name
        } else
            binary.loadError = "__managed__ variable " + name + " is not in the module's PTX";
    }
    if (!binary.loadError.empty())
        binary.module.reset();
}

const ptx::Kernel* kernelFor(const void* hostFunction, FunctionEntry** entry, cudaError_t& error, std::string& message)
{
    auto it = runtime().functions.find(hostFunction);
    if (it == runtime().functions.end()) {
        error = cudaErrorInvalidDeviceFunction;
        message = "no kernel is registered for this host function";
        return nullptr;
    }
    FunctionEntry& f = it->second;
    if (entry)
        *entry = &f;
    ensureLoaded(*f.binary);
    if (!f.binary->module) {
        error = cudaErrorInvalidPtx;
        message = f.binary->loadError;
        return nullptr;
    }
    const ptx::Kernel* k = f.binary->module->findKernel(f.name);
    if (!k) {
        error = cudaErrorInvalidDeviceFunction;
        message = "kernel " + f.name + " is not in the module's PTX";
        return nullptr;
    }
    if (!k->error.empty()) {
        error = cudaErrorInvalidPtx;
        message = k->error;
        return nullptr;
    }
    return k;
}

uint8_t* symbolStorage(const void* hostVariable, size_t* size, std::string* why)
{
    auto fail = [why](const std::string& reason) -> uint8_t* {
        if (why)
            *why = reason;
        return nullptr;
    };
    auto it = runtime().variables.find(hostVariable);
    if (it == runtime().variables.end())
        return fail("not a registered __device__ or __constant__ variable");
    VariableEntry& v = it->second;
    ensureLoaded(*v.binary);
    if (!v.binary->module)
        return fail("its module could not be loaded: " + v.binary->loadError);
    const ptx::Variable* var = v.binary->module->findVariable(v.name);
    if (!var)
        return fail("variable " + v.name + " is not in the module's PTX");
    if (size)
        *size = var->size;
    return var->storage;
}

}  // namespace cudasim
