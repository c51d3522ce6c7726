// Planted bug: the loop's exit condition never becomes true.
#include "common.cuh"

__global__ void spin(volatile int* flag)
{
    while (*flag == 0) {
    }
}

int main()
{
    int* d;
    cudaMalloc(&d, sizeof(int));
    cudaMemset(d, 0, sizeof(int));
    spin<<<1, 32>>>(d);
    report("synchronize", cudaDeviceSynchronize());
    return 0;
}
