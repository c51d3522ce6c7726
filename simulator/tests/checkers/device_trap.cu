// Planted bug: a thread calls __trap() when it sees bad input.
#include "common.cuh"

__global__ void validate(const int* values)
{
    if (values[threadIdx.x] < 0)
        __trap();
}

int main()
{
    int h[32];
    for (int i = 0; i < 32; ++i)
        h[i] = i == 20 ? -5 : i;
    int* d;
    cudaMalloc(&d, sizeof h);
    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    validate<<<1, 32>>>(d);
    report("synchronize", cudaDeviceSynchronize());
    return 0;
}
