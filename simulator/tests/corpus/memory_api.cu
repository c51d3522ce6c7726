// Runtime memory API: copies in every direction, memset, __device__ and
// __constant__ symbols, device properties and launch-time errors.
#include "common.cuh"

__device__ int counter;
__device__ float table[4] = {1.5f, 2.5f, 3.5f, 4.5f};
__constant__ int coefficients[8];

__global__ void useSymbols(int* out)
{
    int i = threadIdx.x;
    out[i] = coefficients[i] * 10 + (int)table[i % 4];
    atomicAdd(&counter, 1);
}

int main()
{
    int h[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    CHECK(cudaMemcpyToSymbol(coefficients, h, sizeof h));
    int zero = 0;
    CHECK(cudaMemcpyToSymbol(counter, &zero, sizeof zero));
    int *d, *d2;
    CHECK(cudaMalloc(&d, 8 * sizeof(int)));
    CHECK(cudaMalloc(&d2, 8 * sizeof(int)));
    useSymbols<<<1, 8>>>(d);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(d2, d, 8 * sizeof(int), cudaMemcpyDeviceToDevice));
    int out[8];
    CHECK(cudaMemcpy(out, d2, sizeof out, cudaMemcpyDeviceToHost));
    std::printf("results:");
    for (int v : out)
        std::printf(" %d", v);
    std::printf("\n");
    int count;
    CHECK(cudaMemcpyFromSymbol(&count, counter, sizeof count));
    float t[2];
    CHECK(cudaMemcpyFromSymbol(t, table, sizeof t, 2 * sizeof(float)));
    std::printf("counter %d table[2..3] %.1f %.1f\n", count, t[0], t[1]);

    CHECK(cudaMemset(d, 0x01, 8 * sizeof(int)));
    CHECK(cudaMemcpy(out, d, sizeof out, cudaMemcpyDeviceToHost));
    std::printf("memset: %08x\n", out[3]);

    void* symbolAddress;
    size_t symbolSize;
    CHECK(cudaGetSymbolAddress(&symbolAddress, table));
    CHECK(cudaGetSymbolSize(&symbolSize, table));
    CHECK(cudaMemcpy(t, symbolAddress, sizeof t, cudaMemcpyDefault));
    std::printf("symbol size %zu first %.1f\n", symbolSize, t[0]);

    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    int count_dev, smem_optin, sms;
    CHECK(cudaGetDeviceCount(&count_dev));
    CHECK(cudaDeviceGetAttribute(&smem_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0));
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    std::printf("devices %d cc %d.%d sms %d warp %d threads/sm %d smem/block %zu optin %d\n", count_dev, prop.major,
                prop.minor, sms, prop.warpSize, prop.maxThreadsPerMultiProcessor, prop.sharedMemPerBlock, smem_optin);

    size_t freeBytes, totalBytes;
    CHECK(cudaMemGetInfo(&freeBytes, &totalBytes));
    std::printf("memory info consistent: %d\n", freeBytes <= totalBytes && totalBytes > (1ull << 30));

    useSymbols<<<1, 2048>>>(d);
    cudaError_t e = cudaGetLastError();
    std::printf("oversized block: %s / %s\n", cudaGetErrorName(e), cudaGetErrorString(e));
    std::printf("after clearing: %s\n", cudaGetErrorName(cudaGetLastError()));
    e = cudaFree(d + 1);
    std::printf("free of interior pointer: %s\n", cudaGetErrorName(e));
    cudaError_t peeked = cudaPeekAtLastError();
    cudaError_t got = cudaGetLastError();
    cudaError_t again = cudaGetLastError();
    std::printf("peek: %s, get: %s, get again: %s\n", cudaGetErrorName(peeked), cudaGetErrorName(got),
                cudaGetErrorName(again));
    free_device(d, d2);
    return 0;
}
