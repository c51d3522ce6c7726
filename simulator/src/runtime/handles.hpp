// The handles of each kind a program created through the runtime and has not destroyed yet
// (streams, events, graphs, executable graphs): what a runtime call accepts as that kind's handle.
// Call with runtime().mutex held.
#pragma once

#include <mutex>
#include <set>
#include <string>
#include <type_traits>

#include <cuda_runtime_api.h>

#include "runtime/state.hpp"

namespace cudasim {

template <class Handle>
std::set<Handle>& live_handles()
{
    static std::set<Handle> handles;
    return handles;
}

// cudaXxxDestroy's check: forgets `handle`, or fails the call with `error` for a handle the program
// did not create or destroyed already. The caller deletes it.
template <class Handle>
cudaError_t forget_handle(const char* api, Handle handle, cudaError_t error, const std::string& why)
{
    if (!live_handles<Handle>().erase(handle))
        return fail_call(api, error, why);
    return cudaSuccess;
}

// cudaXxxCreateWithFlags: a new handle made from `flags` in `*out` (`name`: the argument's name in
// the refusal of a NULL `out`).
template <class Handle>
cudaError_t create_handle(const char* api, Handle* out, const char* name, unsigned flags)
{
    std::lock_guard lock(runtime().mutex);
    if (cudaError_t e = sticky_error_or_null(api, out != nullptr, name))
        return e;
    *out = new std::remove_pointer_t<Handle>{flags};
    live_handles<Handle>().insert(*out);
    return cudaSuccess;
}

// cudaXxxDestroy: forget_handle's check, then `handle` deleted.
template <class Handle>
cudaError_t destroy_handle(const char* api, Handle handle, cudaError_t error, const std::string& why)
{
    std::lock_guard lock(runtime().mutex);
    if (cudaError_t e = forget_handle(api, handle, error, why))
        return e;
    delete handle;
    return cudaSuccess;
}

}  // namespace cudasim
