// Runtime calls that programs commonly reach for but the simulator does
// not model. They fail loudly instead of pretending to work. Anything not
// defined anywhere in libcudasim fails at link time instead.
#include <cuda_runtime_api.h>

#include "runtime/state.hpp"

#include <cstddef>

using namespace cudasim;

namespace {
cudaError_t unsupported(const char* api)
{
    return failCall(api, cudaErrorNotSupported, "not supported by the cudasim CPU simulator");
}
}  // namespace

extern "C" {

cudaError_t cudaMallocArray(cudaArray_t*, const cudaChannelFormatDesc*, size_t, size_t, unsigned int)
{
    return unsupported("cudaMallocArray");
}
cudaError_t cudaLaunchCooperativeKernel(const void*, dim3, dim3, void**, size_t, cudaStream_t)
{
    return unsupported("cudaLaunchCooperativeKernel");
}
cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t*, const void*, void**)
{
    return unsupported("cudaLaunchKernelExC");
}
cudaError_t cudaDeviceSetLimit(cudaLimit, size_t)
{
    return unsupported("cudaDeviceSetLimit");
}
cudaError_t cudaHostRegister(void*, size_t, unsigned int)
{
    return unsupported("cudaHostRegister");
}
cudaError_t cudaCreateTextureObject(cudaTextureObject_t*, const cudaResourceDesc*, const cudaTextureDesc*,
                                    const cudaResourceViewDesc*)
{
    return unsupported("cudaCreateTextureObject");
}

}  // extern "C"
