// Per-thread arrays indexed at run time live in local memory.
#include "common.cuh"

__global__ void localArray(int* out, int k)
{
    int scratch[40];
    int t = threadIdx.x;
    for (int i = 0; i < 40; ++i)
        scratch[i] = i * t;
    int sum = 0;
    for (int i = 0; i < 40; i += k)
        sum += scratch[(i * 7 + t) % 40];
    out[t] = sum;
}

int main()
{
    int* d;
    CHECK(cudaMalloc(&d, 64 * sizeof(int)));
    localArray<<<1, 64>>>(d, 3);
    int h[64];
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    long long total = 0;
    for (int v : h)
        total += v;
    std::printf("local: %d %d %d total %lld\n", h[0], h[1], h[63], total);
    return 0;
}
