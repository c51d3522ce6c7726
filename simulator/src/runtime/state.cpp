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

cudaError_t record_error(cudaError_t e)
{
    if (e != cudaSuccess)
        runtime().last_error = e;
    return e;
}

cudaError_t fail_call(const char* api, cudaError_t e, const std::string& why)
{
    std::fprintf(stderr, "cudasim: %s failed: %s (%s)\n", api, cudaGetErrorName(e), why.c_str());
    return record_error(e);
}

cudaError_t sticky_error()
{
    return runtime().sticky_error;
}

cudaError_t sticky_error_or_null(const char* api, bool given, const char* name)
{
    if (cudaError_t e = sticky_error())
        return e;
    return given ? cudaSuccess : fail_call(api, cudaErrorInvalidValue, std::string(name) + " is NULL");
}

DeviceFaultReport last_device_fault()
{
    std::lock_guard lock(runtime().mutex);
    return {static_cast<int>(runtime().fault_error), runtime().fault_message};
}

cudaError_t synchronize_with_device()
{
    RuntimeState& r = runtime();
    if (r.pending_fault != cudaSuccess) {
        r.sticky_error = r.pending_fault;
        r.last_error = r.pending_fault;
        r.pending_fault = cudaSuccess;
    }
    return r.sticky_error;
}

void ensure_loaded(FatBinary& binary)
{
    if (binary.loaded)
        return;
    binary.loaded = true;
    try {
        if (binary.wrapper)
            binary.ptx = extract_ptx(binary.wrapper);  // else loaded at run time, PTX already set
        binary.module = std::make_unique<ptx::Module>(
            ptx::parse_module(binary.ptx, [](const std::string& name, uint64_t size, uint32_t) {
                return static_cast<uint8_t*>(DeviceMemory::instance().allocate(size, true, name));
            }));
    } catch (const std::exception& e) {
        binary.load_error = e.what();
        return;
    }
    for (const auto& [hostPointer, name] : binary.managed) {
        if (const ptx::Variable* var = binary.module->find_variable(name)) {
            *hostPointer = var->storage;
            runtime().managed_allocations.insert(var->storage);  // memory cudaMemAdvise may name
        } else
            binary.load_error = "__managed__ variable " + name + " is not in the module's PTX";
    }
    if (!binary.load_error.empty())
        binary.module.reset();
}

const ptx::Kernel* kernel_for(const void* host_function, FunctionEntry** entry, cudaError_t& error,
                              std::string& message)
{
    auto it = runtime().functions.find(host_function);
    if (it == runtime().functions.end()) {
        error = cudaErrorInvalidDeviceFunction;
        message = "no kernel is registered for this host function";
        return nullptr;
    }
    FunctionEntry& f = it->second;
    if (entry)
        *entry = &f;
    ensure_loaded(*f.binary);
    if (!f.binary->module) {
        error = cudaErrorInvalidPtx;
        message = f.binary->load_error;
        return nullptr;
    }
    const ptx::Kernel* k = f.binary->module->find_kernel(f.name);
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

KernelOfCall kernel_for_call(const char* api, const void* host_function)
{
    KernelOfCall found;
    std::string why;
    found.kernel = kernel_for(host_function, &found.entry, found.error, why);
    if (!found.kernel)
        fail_call(api, found.error, why);
    return found;
}

uint8_t* symbol_storage(const void* host_variable, size_t* size, std::string* why)
{
    auto fail = [why](const std::string& reason) -> uint8_t* {
        if (why)
            *why = reason;
        return nullptr;
    };
    auto it = runtime().variables.find(host_variable);
    if (it == runtime().variables.end())
        return fail("not a registered __device__ or __constant__ variable");
    VariableEntry& v = it->second;
    ensure_loaded(*v.binary);
    if (!v.binary->module)
        return fail("its module could not be loaded: " + v.binary->load_error);
    const ptx::Variable* var = v.binary->module->find_variable(v.name);
    if (!var)
        return fail("variable " + v.name + " is not in the module's PTX");
    if (size)
        *size = var->size;
    return var->storage;
}

}  // namespace cudasim
