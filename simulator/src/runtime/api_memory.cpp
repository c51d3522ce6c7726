// Device memory API: allocation, copies, memset and symbol access. Copies
// run synchronously, so the Async forms behave like the plain ones, except
// that on a capturing stream they are recorded into the graph instead.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include <cuda_runtime_api.h>

#include "exec/memory/device_memory.hpp"
#include "exec/observers/sector_footprint.hpp"
#include "exec/scheduling/device_model.hpp"
#include "runtime/capture.hpp"
#include "runtime/state.hpp"
#include "runtime/streams.hpp"
#include "support/host_memory.hpp"
#include "timing/timing_model.hpp"

using namespace cudasim;

namespace {

constexpr size_t kPitchAlignment = 512;  // row alignment of cudaMallocPitch

// The free device memory: the modelled GPU's, but never more than this machine can still give,
// since device memory is host memory here (a demo asked for more fails cleanly instead of being
// killed by the kernel's out-of-memory killer).
uint64_t free_device_bytes()
{
    const uint64_t used = DeviceMemory::instance().bytes_in_use();
    const uint64_t modelled = device_model::kGlobalMemoryBytes - std::min(used, device_model::kGlobalMemoryBytes);
    const auto host = host_available_bytes();
    return host ? std::min(modelled, *host) : modelled;
}

bool is_device(const void* p, size_t count)
{
    return DeviceMemory::instance().contains(p, count);
}

// A copy's kind with cudaMemcpyDefault resolved from where its `dst_bytes` at dst and `src_bytes` at
// src lie; another kind as it is.
cudaMemcpyKind resolved_kind(cudaMemcpyKind kind, const void* dst, size_t dst_bytes, const void* src, size_t src_bytes)
{
    if (kind != cudaMemcpyDefault)
        return kind;
    const bool d = is_device(dst, dst_bytes), s = is_device(src, src_bytes);
    return d ? (s ? cudaMemcpyDeviceToDevice : cudaMemcpyHostToDevice)
             : (s ? cudaMemcpyDeviceToHost : cudaMemcpyHostToHost);
}

bool writes_device(cudaMemcpyKind kind)
{
    return kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
}

bool reads_device(cudaMemcpyKind kind)
{
    return kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
}

// Resolves cudaMemcpyDefault and checks that device-side ranges are real
// allocations.
cudaError_t check_copy(const char* api, void* dst, const void* src, size_t count, cudaMemcpyKind& kind)
{
    if (count == 0)
        return cudaSuccess;
    if (!dst || !src)
        return fail_call(api, cudaErrorInvalidValue, "NULL pointer");
    kind = resolved_kind(kind, dst, count, src, count);
    const bool dst_on_device = writes_device(kind);
    const bool src_on_device = reads_device(kind);
    if (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault)
        return fail_call(api, cudaErrorInvalidMemcpyDirection, "bad cudaMemcpyKind");
    if (dst_on_device && !is_device(dst, count))
        return fail_call(api, cudaErrorInvalidValue,
                         "destination is not " + std::to_string(count) + " bytes of device memory");
    if (src_on_device && !is_device(src, count))
        return fail_call(api, cudaErrorInvalidValue,
                         "source is not " + std::to_string(count) + " bytes of device memory");
    return cudaSuccess;
}

// Copies between the host and the device make the host wait for the
// device, which a capture in global or thread-local mode forbids.
bool waits_for_device(cudaMemcpyKind kind)
{
    return kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToHost;
}

// The synchronous calls run on the legacy stream (`stream` 0).
cudaError_t copy(const char* api, void* dst, const void* src, size_t count, cudaMemcpyKind kind, cudaStream_t stream,
                 bool synchronous)
{
    std::lock_guard lock(runtime().mutex);
    Capture* capture = nullptr;
    if (cudaError_t e = open_stream_call(api, stream, capture, synchronous))
        return e;
    if (cudaError_t e = check_copy(api, dst, src, count, kind)) {
        if (capture)
            invalidate_capture(*capture, api);
        return e;
    }
    if (synchronous && waits_for_device(kind))
        if (cudaError_t e = check_unsafe_call(api))
            return e;
    auto run = [dst, src, count, kind] {
        if (count)
            std::memmove(dst, src, count);
        if (kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice)
            DeviceMemory::instance().mark_written(dst, count);
        runtime().device_clock_ms += model_copy_milliseconds(count, kind);
        if (kind == cudaMemcpyDeviceToDevice)
            stream_through_l2(2 * uint64_t{count});
    };
    if (capture)
        capture->nodes.push_back(run);
    else
        run();
    return cudaSuccess;
}

cudaError_t fill(const char* api, void* dst, int value, size_t count, cudaStream_t stream)
{
    std::lock_guard lock(runtime().mutex);
    Capture* capture = nullptr;
    if (cudaError_t e = open_stream_call(api, stream, capture))
        return e;
    if (count && !is_device(dst, count))
        return fail_stream_call(capture, api, cudaErrorInvalidValue,
                                "destination is not " + std::to_string(count) + " bytes of device memory");
    auto run = [dst, value, count] {
        if (count)
            DeviceMemory::instance().fill(dst, value, count);
        stream_through_l2(count);
    };
    if (capture)
        capture->nodes.push_back(run);
    else
        run();
    return cudaSuccess;
}

// Copies `height` rows of `width` bytes between pitched buffers; the
// device-side buffers must hold every row.
cudaError_t copy_2d(const char* api, void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                    size_t height, cudaMemcpyKind kind, cudaStream_t stream, bool synchronous)
{
    std::lock_guard lock(runtime().mutex);
    Capture* capture = nullptr;
    if (cudaError_t e = open_stream_call(api, stream, capture, synchronous))
        return e;
    if (width == 0 || height == 0)
        return cudaSuccess;
    if (width > dpitch || width > spitch)
        return fail_stream_call(capture, api, cudaErrorInvalidPitchValue, "width exceeds a pitch");
    size_t dst_extent = dpitch * (height - 1) + width, src_extent = spitch * (height - 1) + width;
    const cudaMemcpyKind resolved = resolved_kind(kind, dst, dst_extent, src, src_extent);
    const bool dst_on_device = writes_device(resolved);
    const bool src_on_device = reads_device(resolved);
    if (dst_on_device && !is_device(dst, dst_extent))
        return fail_stream_call(capture, api, cudaErrorInvalidValue, "destination rows are not all device memory");
    if (src_on_device && !is_device(src, src_extent))
        return fail_stream_call(capture, api, cudaErrorInvalidValue, "source rows are not all device memory");
    if (synchronous && waits_for_device(resolved))
        if (cudaError_t e = check_unsafe_call(api))
            return e;
    auto run = [=] {
        for (size_t row = 0; row < height; ++row) {
            std::memmove(static_cast<uint8_t*>(dst) + row * dpitch, static_cast<const uint8_t*>(src) + row * spitch,
                         width);
            if (dst_on_device)
                DeviceMemory::instance().mark_written(static_cast<uint8_t*>(dst) + row * dpitch, width);
        }
        runtime().device_clock_ms += model_copy_milliseconds(width * height, resolved);
    };
    if (capture)
        capture->nodes.push_back(run);
    else
        run();
    return cudaSuccess;
}

cudaError_t symbol_copy(const char* api, const void* symbol, void* host, size_t count, size_t offset, bool to_symbol,
                        cudaMemcpyKind kind, cudaStream_t stream, bool synchronous)
{
    std::lock_guard lock(runtime().mutex);
    Capture* capture = nullptr;
    if (cudaError_t e = open_stream_call(api, stream, capture, synchronous))
        return e;
    size_t size = 0;
    std::string why;
    uint8_t* storage = symbol_storage(symbol, &size, &why);
    if (!storage)
        return fail_stream_call(capture, api, cudaErrorInvalidSymbol, why);
    if (offset + count > size)
        return fail_stream_call(capture, api, cudaErrorInvalidValue,
                                std::to_string(count) + " bytes at offset " + std::to_string(offset) + " exceed the " +
                                    std::to_string(size) + "-byte symbol");
    if (count == 0)
        return cudaSuccess;
    bool other_is_device = kind == cudaMemcpyDeviceToDevice || (kind == cudaMemcpyDefault && is_device(host, count));
    if (other_is_device && !is_device(host, count))
        return fail_stream_call(capture, api, cudaErrorInvalidValue, "device pointer is not device memory");
    if (synchronous && !other_is_device)
        if (cudaError_t e = check_unsafe_call(api))
            return e;
    auto run = [=] {
        if (to_symbol)
            std::memmove(storage + offset, host, count);
        else
            std::memmove(host, storage + offset, count);
        if (!to_symbol && other_is_device)
            DeviceMemory::instance().mark_written(host, count);
        runtime().device_clock_ms +=
            model_copy_milliseconds(count, other_is_device ? cudaMemcpyDeviceToDevice : cudaMemcpyHostToDevice);
    };
    if (capture)
        capture->nodes.push_back(run);
    else
        run();
    return cudaSuccess;
}

}  // namespace

extern "C" {

cudaError_t cudaMalloc(void** devPtr, size_t size)
{
    std::lock_guard lock(runtime().mutex);
    if (cudaError_t e = sticky_error())
        return e;
    // A graph would not replay the allocation.
    if (cudaError_t e = check_unsafe_call("cudaMalloc"))
        return e;
    if (!devPtr)
        return fail_call("cudaMalloc", cudaErrorInvalidValue, "devPtr is NULL");
    if (size == 0) {
        *devPtr = nullptr;
        return cudaSuccess;
    }
    if (size > free_device_bytes())
        return record_error(cudaErrorMemoryAllocation);
    void* p = DeviceMemory::instance().allocate(size);
    if (!p)
        return record_error(cudaErrorMemoryAllocation);
    *devPtr = p;
    return cudaSuccess;
}

// Device memory is host memory here, so managed memory is plain device memory, remembered as
// managed for the calls that take only managed memory (cudaMemAdvise, cudaMemPrefetchAsync).
cudaError_t cudaMallocManaged(void** devPtr, size_t size, unsigned int)
{
    const cudaError_t e = cudaMalloc(devPtr, size);
    // The host writes managed memory through plain pointers, which the initcheck cannot see.
    if (e == cudaSuccess && *devPtr) {
        DeviceMemory::instance().mark_written(*devPtr, size);
        std::lock_guard lock(runtime().mutex);
        runtime().managed_allocations.insert(*devPtr);
    }
    return e;
}

namespace {
// Why [devPtr, devPtr + count) is not managed memory a hint may name, or nullptr. Call with
// runtime().mutex held.
const char* not_managed_range(const void* devPtr, size_t count)
{
    if (count == 0)
        return "count is 0";
    const Allocation* a = DeviceMemory::instance().find(reinterpret_cast<uintptr_t>(devPtr));
    if (!a || !runtime().managed_allocations.count(reinterpret_cast<const void*>(a->base)))
        return "devPtr is not managed memory (cudaMallocManaged's or a __managed__ variable)";
    if (reinterpret_cast<uintptr_t>(devPtr) + count > a->base + a->size)
        return "the range runs past the end of its managed allocation";
    return nullptr;
}

// Why a location is not this machine's one device or the host, or nullptr.
const char* bad_location(const cudaMemLocation& location, cudaError_t& error)
{
    error = cudaErrorInvalidValue;
    if (location.type == cudaMemLocationTypeDevice) {
        error = cudaErrorInvalidDevice;
        return location.id == 0 ? nullptr : "location.id is not a device (the simulator has device 0)";
    }
    if (location.type == cudaMemLocationTypeHost || location.type == cudaMemLocationTypeHostNumaCurrent)
        return nullptr;
    if (location.type == cudaMemLocationTypeHostNuma)
        return location.id == 0 ? nullptr : "location.id is not a NUMA node (the simulator has node 0)";
    return "location.type is not a device or the host";
}
}  // namespace

// Hints only: the memory lives in one place here, so a valid hint changes nothing.
cudaError_t cudaMemAdvise(const void* devPtr, size_t count, cudaMemoryAdvise advice, cudaMemLocation location)
{
    std::lock_guard lock(runtime().mutex);
    if (cudaError_t e = sticky_error())
        return e;
    if (const char* why = not_managed_range(devPtr, count))
        return fail_call("cudaMemAdvise", cudaErrorInvalidValue, why);
    switch (advice) {
    case cudaMemAdviseSetReadMostly:
    case cudaMemAdviseUnsetReadMostly:
    case cudaMemAdviseUnsetPreferredLocation:
        return cudaSuccess;  // the location is ignored
    case cudaMemAdviseSetPreferredLocation:
    case cudaMemAdviseSetAccessedBy:
    case cudaMemAdviseUnsetAccessedBy: {
        // An H200 answers a device that is not there with cudaErrorInvalidValue here, where
        // cudaMemPrefetchAsync says cudaErrorInvalidDevice.
        cudaError_t error = cudaSuccess;
        if (const char* why = bad_location(location, error))
            return fail_call("cudaMemAdvise", cudaErrorInvalidValue, why);
        return cudaSuccess;
    }
    default:
        return fail_call("cudaMemAdvise", cudaErrorInvalidValue, "advice is not a cudaMemoryAdvise");
    }
}

// Work on a stream has finished when a call returns, and managed memory is where both sides can
// read it: a valid prefetch has nothing to move.
cudaError_t cudaMemPrefetchAsync(const void* devPtr, size_t count, cudaMemLocation location, unsigned int flags,
                                 cudaStream_t stream)
{
    std::lock_guard lock(runtime().mutex);
    if (cudaError_t e = sticky_error())
        return e;
    if (const char* why = not_managed_range(devPtr, count))
        return fail_call("cudaMemPrefetchAsync", cudaErrorInvalidValue, why);
    cudaError_t error = cudaSuccess;
    if (const char* why = bad_location(location, error))
        return fail_call("cudaMemPrefetchAsync", error, why);
    if (flags != 0)
        return fail_call("cudaMemPrefetchAsync", cudaErrorInvalidValue, "flags must be 0");
    if (!is_valid_stream(stream))
        return fail_call("cudaMemPrefetchAsync", cudaErrorInvalidResourceHandle, "unknown stream");
    return cudaSuccess;
}

cudaError_t cudaFree(void* devPtr)
{
    std::lock_guard lock(runtime().mutex);
    if (cudaError_t e = sticky_error())
        return e;
    if (cudaError_t e = check_unsafe_call("cudaFree"))
        return e;
    if (cudaError_t e = synchronize_with_device())
        return e;  // cudaFree waits for the device
    if (!devPtr)
        return cudaSuccess;
    if (!DeviceMemory::instance().release(devPtr))
        return fail_call("cudaFree", cudaErrorInvalidValue, "pointer is not the start of a live cudaMalloc allocation");
    runtime().managed_allocations.erase(devPtr);
    return cudaSuccess;
}

cudaError_t cudaMallocHost(void** ptr, size_t size)
{
    if (!ptr)
        return record_error(cudaErrorInvalidValue);
    *ptr = std::malloc(size ? size : 1);
    return *ptr ? cudaSuccess : record_error(cudaErrorMemoryAllocation);
}

cudaError_t cudaHostAlloc(void** ptr, size_t size, unsigned int)
{
    return cudaMallocHost(ptr, size);
}

cudaError_t cudaFreeHost(void* ptr)
{
    std::free(ptr);
    return cudaSuccess;
}

cudaError_t cudaMemcpy(void* dst, const void* src, size_t count, cudaMemcpyKind kind)
{
    return copy("cudaMemcpy", dst, src, count, kind, nullptr, true);
}

cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t count, cudaMemcpyKind kind, cudaStream_t stream)
{
    return copy("cudaMemcpyAsync", dst, src, count, kind, stream, false);
}

cudaError_t cudaMallocPitch(void** devPtr, size_t* pitch, size_t width, size_t height)
{
    if (!pitch)
        return record_error(cudaErrorInvalidValue);
    *pitch = (std::max<size_t>(width, 1) + kPitchAlignment - 1) / kPitchAlignment * kPitchAlignment;
    return cudaMalloc(devPtr, *pitch * height);
}

cudaError_t cudaMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                         cudaMemcpyKind kind)
{
    return copy_2d("cudaMemcpy2D", dst, dpitch, src, spitch, width, height, kind, nullptr, true);
}

cudaError_t cudaMemcpy2DAsync(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                              cudaMemcpyKind kind, cudaStream_t stream)
{
    return copy_2d("cudaMemcpy2DAsync", dst, dpitch, src, spitch, width, height, kind, stream, false);
}

cudaError_t cudaMemset(void* devPtr, int value, size_t count)
{
    return fill("cudaMemset", devPtr, value, count, nullptr);
}

cudaError_t cudaMemsetAsync(void* devPtr, int value, size_t count, cudaStream_t stream)
{
    return fill("cudaMemsetAsync", devPtr, value, count, stream);
}

cudaError_t cudaMemcpyToSymbol(const void* symbol, const void* src, size_t count, size_t offset, cudaMemcpyKind kind)
{
    return symbol_copy("cudaMemcpyToSymbol", symbol, const_cast<void*>(src), count, offset, true, kind, nullptr, true);
}

cudaError_t cudaMemcpyFromSymbol(void* dst, const void* symbol, size_t count, size_t offset, cudaMemcpyKind kind)
{
    return symbol_copy("cudaMemcpyFromSymbol", symbol, dst, count, offset, false, kind, nullptr, true);
}

cudaError_t cudaMemcpyToSymbolAsync(const void* symbol, const void* src, size_t count, size_t offset,
                                    cudaMemcpyKind kind, cudaStream_t stream)
{
    return symbol_copy("cudaMemcpyToSymbolAsync", symbol, const_cast<void*>(src), count, offset, true, kind, stream,
                       false);
}

cudaError_t cudaMemcpyFromSymbolAsync(void* dst, const void* symbol, size_t count, size_t offset, cudaMemcpyKind kind,
                                      cudaStream_t stream)
{
    return symbol_copy("cudaMemcpyFromSymbolAsync", symbol, dst, count, offset, false, kind, stream, false);
}

cudaError_t cudaGetSymbolAddress(void** devPtr, const void* symbol)
{
    std::lock_guard lock(runtime().mutex);
    if (cudaError_t e = sticky_error())
        return e;
    uint8_t* storage = symbol_storage(symbol, nullptr);
    if (!storage)
        return fail_call("cudaGetSymbolAddress", cudaErrorInvalidSymbol, "unknown symbol");
    *devPtr = storage;
    return cudaSuccess;
}

cudaError_t cudaGetSymbolSize(size_t* size, const void* symbol)
{
    std::lock_guard lock(runtime().mutex);
    if (cudaError_t e = sticky_error())
        return e;
    if (!symbol_storage(symbol, size))
        return fail_call("cudaGetSymbolSize", cudaErrorInvalidSymbol, "unknown symbol");
    return cudaSuccess;
}

cudaError_t cudaMemGetInfo(size_t* free_bytes, size_t* total_bytes)
{
    std::lock_guard lock(runtime().mutex);
    if (cudaError_t e = sticky_error())
        return e;
    if (free_bytes)
        *free_bytes = free_device_bytes();
    if (total_bytes)
        *total_bytes = device_model::kGlobalMemoryBytes;
    return cudaSuccess;
}

// A description of a texel's channels: no device state, so it works as on a GPU (the arrays and
// textures it describes do not).
cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, cudaChannelFormatKind f)
{
    return cudaChannelFormatDesc{x, y, z, w, f};
}

}  // extern "C"
