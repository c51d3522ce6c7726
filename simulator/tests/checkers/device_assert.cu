// Planted bug: a device-side assert fails for one thread.
#undef NDEBUG  // keep assert() in release builds
#include "common.cuh"
#include <cassert>

__global__ void check(const int* values)
{
    int value = values[threadIdx.x];
    assert(value >= 0);
}

int main()
{
    int h[32];
    for (int i = 0; i < 32; ++i)
        h[i] = i == 7 ? -1 : i;
    int* d;
    cudaMalloc(&d, sizeof h);
    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    check<<<1, 32>>>(d);
    report("synchronize", cudaDeviceSynchronize());
    return 0;
}
