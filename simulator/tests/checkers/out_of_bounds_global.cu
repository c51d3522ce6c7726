// Planted bug: the last thread writes one element past the allocation.
// As on a GPU, the launch itself succeeds and the fault is reported by the
// next synchronising call; from then on it is sticky until cudaDeviceReset.
#include "common.cuh"

__global__ void writePastEnd(int* data, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= n)
        data[i] = i;  // should be i < n
}

int main()
{
    const int n = 256;
    int* d;
    cudaMalloc(&d, n * sizeof(int));
    writePastEnd<<<1, n + 32>>>(d, n);
    report("launch", cudaGetLastError());
    report("synchronize", cudaDeviceSynchronize());
    int* other;
    report("malloc after fault", cudaMalloc(&other, 16));
    report("reset", cudaDeviceReset());
    report("malloc after reset", cudaMalloc(&other, 16));
    return 0;
}
