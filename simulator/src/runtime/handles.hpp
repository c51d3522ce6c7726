// The handles of each kind a program created through the runtime and has not destroyed yet
// (streams, events, graphs, executable graphs): what a runtime call accepts as that kind's handle.
// Call with runtime().mutex held.
#pragma once

#include <set>
#include <string>

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

}  // namespace cudasim
