// More streams and events: three streams each copying a chunk in with cudaMemcpyAsync from pinned
// memory, running a kernel on it and copying it out; cudaStreamWaitEvent making one stream wait for
// another's kernel; cudaEventQuery and cudaStreamQuery after synchronising; streams with priorities
// (the range, clamping, cudaStreamGetPriority, cudaStreamGetFlags); cudaMemsetAsync and a
// device-to-device cudaMemcpyAsync; cudaLaunchKernel with a hand-built argument array holding a
// struct, a double and pointers; cudaFuncGetAttributes' maxThreadsPerBlock under
// __launch_bounds__; and cudaLaunchHostFunc ordered after a kernel, printing what the kernel wrote.
#include "common.cuh"

constexpr int kChunk = 1024;
constexpr int kStreams = 3;

__global__ void scaleChunk(float* data, float factor, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        data[i] = data[i] * factor + 1.0f;
}

// Reads what another stream's kernel wrote.
__global__ void sumInto(const float* a, const float* b, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = a[i] + b[i];
}

struct Affine {
    int multiplier;
    int offset;
    short tag;
};

__global__ void __launch_bounds__(128) affine(int* data, Affine transform, double bias, const int* extra)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    data[i] = data[i] * transform.multiplier + transform.offset + transform.tag + static_cast<int>(bias) + extra[i % 4];
}

__global__ void writeAnswer(int* answer, int value)
{
    if (threadIdx.x == 0)
        *answer = value * 6 + 4;
}

void CUDART_CB reportAnswer(void* data)
{
    std::printf("host function: the kernel wrote %d\n", *static_cast<volatile int*>(data));
}

int main()
{
    float* pinned;
    CHECK(cudaMallocHost(&pinned, kStreams * kChunk * sizeof(float)));
    for (int i = 0; i < kStreams * kChunk; ++i)
        pinned[i] = static_cast<float>(i % 100);
    float* d;
    CHECK(cudaMalloc(&d, kStreams * kChunk * sizeof(float)));
    cudaStream_t streams[kStreams];
    for (int s = 0; s < kStreams; ++s)
        CHECK(cudaStreamCreateWithFlags(&streams[s], cudaStreamNonBlocking));
    for (int s = 0; s < kStreams; ++s) {
        float* chunk = d + s * kChunk;
        CHECK(cudaMemcpyAsync(chunk, pinned + s * kChunk, kChunk * sizeof(float), cudaMemcpyHostToDevice, streams[s]));
        scaleChunk<<<kChunk / 256, 256, 0, streams[s]>>>(chunk, static_cast<float>(s + 2), kChunk);
        CHECK(cudaMemcpyAsync(pinned + s * kChunk, chunk, kChunk * sizeof(float), cudaMemcpyDeviceToHost, streams[s]));
    }
    for (int s = 0; s < kStreams; ++s)
        CHECK(cudaStreamSynchronize(streams[s]));
    std::printf("chunks: %.0f %.0f %.0f %.0f\n", pinned[5], pinned[kChunk + 5], pinned[2 * kChunk + 99],
                pinned[3 * kChunk - 1]);

    // Stream 1 waits for stream 0's kernel through an event, then adds both chunks.
    cudaEvent_t chunk0Done;
    CHECK(cudaEventCreateWithFlags(&chunk0Done, cudaEventDisableTiming));
    float* sums;
    CHECK(cudaMalloc(&sums, kChunk * sizeof(float)));
    scaleChunk<<<kChunk / 256, 256, 0, streams[0]>>>(d, 10.0f, kChunk);
    CHECK(cudaEventRecord(chunk0Done, streams[0]));
    CHECK(cudaStreamWaitEvent(streams[1], chunk0Done, 0));
    sumInto<<<kChunk / 256, 256, 0, streams[1]>>>(d, d + kChunk, sums, kChunk);
    CHECK(cudaMemcpyAsync(pinned, sums, kChunk * sizeof(float), cudaMemcpyDeviceToHost, streams[1]));
    CHECK(cudaStreamSynchronize(streams[1]));
    std::printf("after the wait: %.0f %.0f\n", pinned[0], pinned[kChunk - 1]);
    std::printf("queries after synchronising: event %s, stream 0 %s, stream 1 %s\n",
                cudaGetErrorName(cudaEventQuery(chunk0Done)), cudaGetErrorName(cudaStreamQuery(streams[0])),
                cudaGetErrorName(cudaStreamQuery(streams[1])));

    // A memset and a device-to-device copy on one stream, in order.
    CHECK(cudaMemsetAsync(sums, 0, kChunk * sizeof(float), streams[2]));
    CHECK(cudaMemcpyAsync(sums + 10, d + 2 * kChunk + 10, 5 * sizeof(float), cudaMemcpyDeviceToDevice, streams[2]));
    CHECK(cudaMemcpyAsync(pinned, sums, 16 * sizeof(float), cudaMemcpyDeviceToHost, streams[2]));
    CHECK(cudaStreamSynchronize(streams[2]));
    std::printf("memset then copy:");
    for (int i = 8; i < 16; ++i)
        std::printf(" %.0f", pinned[i]);
    std::printf("\n");

    // Priorities: lower numbers are higher priorities; out-of-range requests are clamped.
    int least = 0, greatest = 0;
    CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    cudaStream_t high, low, clamped;
    CHECK(cudaStreamCreateWithPriority(&high, cudaStreamNonBlocking, greatest));
    CHECK(cudaStreamCreateWithPriority(&low, cudaStreamDefault, least));
    CHECK(cudaStreamCreateWithPriority(&clamped, cudaStreamNonBlocking, greatest - 100));
    int pHigh, pLow, pClamped;
    unsigned fHigh, fLow;
    CHECK(cudaStreamGetPriority(high, &pHigh));
    CHECK(cudaStreamGetPriority(low, &pLow));
    CHECK(cudaStreamGetPriority(clamped, &pClamped));
    CHECK(cudaStreamGetFlags(high, &fHigh));
    CHECK(cudaStreamGetFlags(low, &fLow));
    std::printf("priorities: greatest < least %d, high is greatest %d, low is least %d, clamped to greatest %d, "
                "flags %u %u\n",
                greatest < least, pHigh == greatest, pLow == least, pClamped == greatest, fHigh, fLow);

    // cudaLaunchKernel with the arguments laid out by hand.
    int h[256];
    for (int i = 0; i < 256; ++i)
        h[i] = i - 128;
    const int extraHost[4] = {1000, 2000, 3000, 4000};
    int *data, *extra;
    CHECK(cudaMalloc(&data, sizeof h));
    CHECK(cudaMalloc(&extra, sizeof extraHost));
    CHECK(cudaMemcpy(data, h, sizeof h, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(extra, extraHost, sizeof extraHost, cudaMemcpyHostToDevice));
    Affine transform = {3, -7, 11};
    double bias = 0.75e2;
    void* args[] = {&data, &transform, &bias, &extra};
    CHECK(cudaLaunchKernel(reinterpret_cast<const void*>(affine), dim3(2), dim3(128), args, 0, high));
    CHECK(cudaMemcpyAsync(h, data, sizeof h, cudaMemcpyDeviceToHost, high));
    CHECK(cudaStreamSynchronize(high));
    std::printf("cudaLaunchKernel: %d %d %d\n", h[0], h[129], h[255]);
    cudaFuncAttributes attributes;
    CHECK(cudaFuncGetAttributes(&attributes, affine));
    std::printf("affine maxThreadsPerBlock %d\n", attributes.maxThreadsPerBlock);
    std::fflush(stdout);

    // The host function runs after the kernel and the copy before it in the same stream.
    int* answer;
    int* answerHost;
    CHECK(cudaMalloc(&answer, sizeof(int)));
    CHECK(cudaMallocHost(&answerHost, sizeof(int)));
    *answerHost = -1;
    writeAnswer<<<1, 32, 0, low>>>(answer, 7);
    CHECK(cudaMemcpyAsync(answerHost, answer, sizeof(int), cudaMemcpyDeviceToHost, low));
    CHECK(cudaLaunchHostFunc(low, reportAnswer, answerHost));
    CHECK(cudaStreamSynchronize(low));
    std::fflush(stdout);
    std::printf("after the host function: stream %s\n", cudaGetErrorName(cudaStreamQuery(low)));

    CHECK(cudaEventDestroy(chunk0Done));
    for (cudaStream_t s : streams)
        CHECK(cudaStreamDestroy(s));
    CHECK(cudaStreamDestroy(high));
    CHECK(cudaStreamDestroy(low));
    CHECK(cudaStreamDestroy(clamped));
    CHECK(cudaFreeHost(pinned));
    CHECK(cudaFreeHost(answerHost));
    free_device(d, sums, data, extra, answer);
    return 0;
}
