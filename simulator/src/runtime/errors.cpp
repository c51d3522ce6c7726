// cudaGetErrorName / cudaGetErrorString with the runtime's own wording.
#include <cuda_runtime_api.h>

namespace {

struct ErrorText {
    cudaError_t code;
    const char* name;
    const char* text;
};

#define CUDASIM_ERROR(code, text) \
    {                             \
        code, #code, text         \
    }

constexpr ErrorText kErrors[] = {
    CUDASIM_ERROR(cudaSuccess, "no error"),
    CUDASIM_ERROR(cudaErrorInvalidValue, "invalid argument"),
    CUDASIM_ERROR(cudaErrorMemoryAllocation, "out of memory"),
    CUDASIM_ERROR(cudaErrorInitializationError, "initialization error"),
    CUDASIM_ERROR(cudaErrorCudartUnloading, "driver shutting down"),
    CUDASIM_ERROR(cudaErrorInvalidConfiguration, "invalid configuration argument"),
    CUDASIM_ERROR(cudaErrorInvalidPitchValue, "invalid pitch argument"),
    CUDASIM_ERROR(cudaErrorInvalidSymbol, "invalid device symbol"),
    CUDASIM_ERROR(cudaErrorInvalidHostPointer, "invalid host pointer"),
    CUDASIM_ERROR(cudaErrorInvalidDevicePointer, "invalid device pointer"),
    CUDASIM_ERROR(cudaErrorInvalidMemcpyDirection, "invalid copy direction for memcpy"),
    CUDASIM_ERROR(cudaErrorInvalidDeviceFunction, "invalid device function"),
    CUDASIM_ERROR(cudaErrorNoDevice, "no CUDA-capable device is detected"),
    CUDASIM_ERROR(cudaErrorInvalidDevice, "invalid device ordinal"),
    CUDASIM_ERROR(cudaErrorStartupFailure, "device kernel image is invalid"),
    CUDASIM_ERROR(cudaErrorInvalidKernelImage, "device kernel image is invalid"),
    CUDASIM_ERROR(cudaErrorNoKernelImageForDevice, "no kernel image is available for execution on the device"),
    CUDASIM_ERROR(cudaErrorInvalidPtx, "a PTX JIT compilation failed"),
    CUDASIM_ERROR(cudaErrorInvalidResourceHandle, "invalid resource handle"),
    CUDASIM_ERROR(cudaErrorSymbolNotFound, "named symbol not found"),
    CUDASIM_ERROR(cudaErrorNotReady, "device not ready"),
    CUDASIM_ERROR(cudaErrorIllegalAddress, "an illegal memory access was encountered"),
    CUDASIM_ERROR(cudaErrorLaunchOutOfResources, "too many resources requested for launch"),
    CUDASIM_ERROR(cudaErrorLaunchTimeout, "the launch timed out and was terminated"),
    CUDASIM_ERROR(cudaErrorAssert, "device-side assert triggered"),
    CUDASIM_ERROR(cudaErrorHardwareStackError, "hardware stack error"),
    CUDASIM_ERROR(cudaErrorIllegalInstruction, "an illegal instruction was encountered"),
    CUDASIM_ERROR(cudaErrorMisalignedAddress, "misaligned address"),
    CUDASIM_ERROR(cudaErrorInvalidAddressSpace, "operation not supported on global/shared address space"),
    CUDASIM_ERROR(cudaErrorInvalidPc, "invalid program counter"),
    CUDASIM_ERROR(cudaErrorLaunchFailure, "unspecified launch failure"),
    CUDASIM_ERROR(cudaErrorCooperativeLaunchTooLarge, "too many blocks in cooperative launch"),
    CUDASIM_ERROR(cudaErrorInvalidNormSetting, "read as normalized float not supported for data type"),
    CUDASIM_ERROR(cudaErrorNotSupported, "operation not supported"),
    CUDASIM_ERROR(cudaErrorNotPermitted, "operation not permitted"),
    CUDASIM_ERROR(cudaErrorIllegalState, "the operation cannot be performed in the present state"),
    CUDASIM_ERROR(cudaErrorStreamCaptureUnsupported, "operation not permitted when stream is capturing"),
    CUDASIM_ERROR(cudaErrorStreamCaptureInvalidated, "operation failed due to a previous error during capture"),
    CUDASIM_ERROR(cudaErrorStreamCaptureMerge, "operation would result in a merge of separate capture sequences"),
    CUDASIM_ERROR(cudaErrorStreamCaptureUnmatched, "capture was not ended in the same stream as it began"),
    CUDASIM_ERROR(cudaErrorStreamCaptureUnjoined, "capturing stream has unjoined work"),
    CUDASIM_ERROR(cudaErrorStreamCaptureIsolation, "dependency created on uncaptured work in another stream"),
    CUDASIM_ERROR(cudaErrorStreamCaptureImplicit,
                  "operation would make the legacy stream depend on a capturing blocking stream"),
    CUDASIM_ERROR(cudaErrorCapturedEvent, "operation not permitted on an event last recorded in a capturing stream"),
    CUDASIM_ERROR(cudaErrorStreamCaptureWrongThread,
                  "attempt to terminate a thread-local capture sequence from another thread"),
    CUDASIM_ERROR(cudaErrorUnknown, "unknown error"),
};

#undef CUDASIM_ERROR

const ErrorText* lookup(cudaError_t e)
{
    for (const ErrorText& t : kErrors)
        if (t.code == e)
            return &t;
    return nullptr;
}

}  // namespace

extern "C" {

const char* cudaGetErrorName(cudaError_t error)
{
    const ErrorText* t = lookup(error);
    return t ? t->name : "cudaErrorUnknown";
}

const char* cudaGetErrorString(cudaError_t error)
{
    const ErrorText* t = lookup(error);
    return t ? t->text : "unknown error";
}

}  // extern "C"
