// Streams run in order; events measure (modelled) time between them.
#include "common.cuh"

__global__ void scale(float* data, float factor, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        data[i] *= factor;
}

int main()
{
    const int n = 1 << 16;
    float* h = new float[n];
    for (int i = 0; i < n; ++i)
        h[i] = 1.0f;
    float* d;
    CHECK(cudaMalloc(&d, n * sizeof(float)));
    cudaStream_t s1, s2;
    CHECK(cudaStreamCreate(&s1));
    CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    cudaEvent_t start, stop, mid;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    CHECK(cudaEventCreateWithFlags(&mid, cudaEventDisableTiming));
    CHECK(cudaEventRecord(start, s1));
    CHECK(cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, s1));
    scale<<<64, 256, 0, s1>>>(d, 2.0f, n);
    CHECK(cudaEventRecord(mid, s1));
    CHECK(cudaStreamWaitEvent(s2, mid, 0));
    scale<<<64, 256, 0, s2>>>(d, 3.0f, n);
    CHECK(cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, s2));
    CHECK(cudaEventRecord(stop, s2));
    CHECK(cudaEventSynchronize(stop));
    CHECK(cudaStreamSynchronize(s1));
    CHECK(cudaStreamSynchronize(s2));
    float ms = -1;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    std::printf("values %.1f %.1f, elapsed positive: %d\n", h[0], h[n - 1], ms > 0.0f);
    cudaEvent_t never;
    CHECK(cudaEventCreate(&never));
    cudaError_t e = cudaEventElapsedTime(&ms, start, never);
    std::printf("unrecorded event: %s\n", cudaGetErrorName(e));
    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    CHECK(cudaEventDestroy(mid));
    CHECK(cudaEventDestroy(never));
    CHECK(cudaStreamDestroy(s1));
    CHECK(cudaStreamDestroy(s2));
    CHECK(cudaDeviceSynchronize());
    return 0;
}
