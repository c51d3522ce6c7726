// With `nvcc --default-stream per-thread` the runtime header renames the
// stream-ordered calls (cudaMemcpy -> cudaMemcpy_ptds, cudaMemcpyAsync ->
// cudaMemcpyAsync_ptsz, ...). Work runs synchronously here, so these entry
// points forward to the plain ones. In the _ptsz calls stream 0 means the
// per-thread default stream, which, unlike the legacy stream, can be
// captured; the _ptds calls are treated as legacy-stream work.
#include <cuda_runtime_api.h>

#include <cstddef>

namespace {
cudaStream_t per_thread(cudaStream_t stream)
{
    return stream ? stream : cudaStreamPerThread;
}
}  // namespace

extern "C" {

cudaError_t cudaMemcpy_ptds(void* dst, const void* src, size_t count, cudaMemcpyKind kind)
{
    return cudaMemcpy(dst, src, count, kind);
}

cudaError_t cudaMemcpyToSymbol_ptds(const void* symbol, const void* src, size_t count, size_t offset,
                                    cudaMemcpyKind kind)
{
    return cudaMemcpyToSymbol(symbol, src, count, offset, kind);
}

cudaError_t cudaMemcpyFromSymbol_ptds(void* dst, const void* symbol, size_t count, size_t offset, cudaMemcpyKind kind)
{
    return cudaMemcpyFromSymbol(dst, symbol, count, offset, kind);
}

cudaError_t cudaMemset_ptds(void* devPtr, int value, size_t count)
{
    return cudaMemset(devPtr, value, count);
}

cudaError_t cudaMemcpy2D_ptds(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                              cudaMemcpyKind kind)
{
    return cudaMemcpy2D(dst, dpitch, src, spitch, width, height, kind);
}

cudaError_t cudaMemcpy2DAsync_ptsz(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                                   size_t height, cudaMemcpyKind kind, cudaStream_t stream)
{
    return cudaMemcpy2DAsync(dst, dpitch, src, spitch, width, height, kind, per_thread(stream));
}

cudaError_t cudaMemcpyAsync_ptsz(void* dst, const void* src, size_t count, cudaMemcpyKind kind, cudaStream_t stream)
{
    return cudaMemcpyAsync(dst, src, count, kind, per_thread(stream));
}

cudaError_t cudaMemcpyToSymbolAsync_ptsz(const void* symbol, const void* src, size_t count, size_t offset,
                                         cudaMemcpyKind kind, cudaStream_t stream)
{
    return cudaMemcpyToSymbolAsync(symbol, src, count, offset, kind, per_thread(stream));
}

cudaError_t cudaMemcpyFromSymbolAsync_ptsz(void* dst, const void* symbol, size_t count, size_t offset,
                                           cudaMemcpyKind kind, cudaStream_t stream)
{
    return cudaMemcpyFromSymbolAsync(dst, symbol, count, offset, kind, per_thread(stream));
}

cudaError_t cudaMemsetAsync_ptsz(void* devPtr, int value, size_t count, cudaStream_t stream)
{
    return cudaMemsetAsync(devPtr, value, count, per_thread(stream));
}

cudaError_t cudaStreamQuery_ptsz(cudaStream_t stream)
{
    return cudaStreamQuery(per_thread(stream));
}

cudaError_t cudaStreamSynchronize_ptsz(cudaStream_t stream)
{
    return cudaStreamSynchronize(per_thread(stream));
}

cudaError_t cudaStreamWaitEvent_ptsz(cudaStream_t stream, cudaEvent_t event, unsigned int flags)
{
    return cudaStreamWaitEvent(per_thread(stream), event, flags);
}

cudaError_t cudaEventRecord_ptsz(cudaEvent_t event, cudaStream_t stream)
{
    return cudaEventRecord(event, per_thread(stream));
}

cudaError_t cudaEventRecordWithFlags_ptsz(cudaEvent_t event, cudaStream_t stream, unsigned int flags)
{
    return cudaEventRecordWithFlags(event, per_thread(stream), flags);
}

cudaError_t cudaLaunchKernel_ptsz(const void* func, dim3 gridDim, dim3 blockDim, void** args, size_t sharedMem,
                                  cudaStream_t stream)
{
    return cudaLaunchKernel(func, gridDim, blockDim, args, sharedMem, per_thread(stream));
}

cudaError_t cudaLaunchCooperativeKernel_ptsz(const void* func, dim3 gridDim, dim3 blockDim, void** args,
                                             size_t sharedMem, cudaStream_t stream)
{
    return cudaLaunchCooperativeKernel(func, gridDim, blockDim, args, sharedMem, per_thread(stream));
}

cudaError_t cudaStreamBeginCapture_ptsz(cudaStream_t stream, cudaStreamCaptureMode mode)
{
    return cudaStreamBeginCapture(per_thread(stream), mode);
}

cudaError_t cudaStreamEndCapture_ptsz(cudaStream_t stream, cudaGraph_t* graph)
{
    return cudaStreamEndCapture(per_thread(stream), graph);
}

cudaError_t cudaStreamIsCapturing_ptsz(cudaStream_t stream, cudaStreamCaptureStatus* status)
{
    return cudaStreamIsCapturing(per_thread(stream), status);
}

cudaError_t cudaStreamGetCaptureInfo_ptsz(cudaStream_t stream, cudaStreamCaptureStatus* status, unsigned long long* id,
                                          cudaGraph_t* graph, const cudaGraphNode_t** dependencies,
                                          const cudaGraphEdgeData** edgeData, size_t* numDependencies)
{
    return cudaStreamGetCaptureInfo(per_thread(stream), status, id, graph, dependencies, edgeData, numDependencies);
}

cudaError_t cudaGraphLaunch_ptsz(cudaGraphExec_t exec, cudaStream_t stream)
{
    return cudaGraphLaunch(exec, per_thread(stream));
}

cudaError_t cudaStreamAddCallback_ptsz(cudaStream_t stream, cudaStreamCallback_t callback, void* userData,
                                       unsigned int flags)
{
    return cudaStreamAddCallback(per_thread(stream), callback, userData, flags);
}

cudaError_t cudaMemPrefetchAsync_ptsz(const void* devPtr, size_t count, cudaMemLocation location, unsigned int flags,
                                      cudaStream_t stream)
{
    return cudaMemPrefetchAsync(devPtr, count, location, flags, per_thread(stream));
}

}  // extern "C"
