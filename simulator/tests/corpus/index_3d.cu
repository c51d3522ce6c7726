// 3-D grids and blocks: every built-in index variable.
#include "common.cuh"

__global__ void indices(int* out)
{
    int bx = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    int tx = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    int global = bx * (blockDim.x * blockDim.y * blockDim.z) + tx;
    out[global] = threadIdx.x + 10 * threadIdx.y + 100 * threadIdx.z + 1000 * blockIdx.x + 10000 * blockIdx.y +
                  100000 * blockIdx.z;
}

int main()
{
    dim3 grid(3, 2, 2), block(4, 3, 2);
    int n = 12 * 24;
    int* d;
    CHECK(cudaMalloc(&d, n * sizeof(int)));
    indices<<<grid, block>>>(d);
    int* h = new int[n];
    CHECK(cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost));
    long long sum = 0;
    for (int i = 0; i < n; ++i)
        sum += h[i];
    std::printf("first %d last %d sum %lld\n", h[0], h[n - 1], sum);
    std::printf("samples %d %d %d\n", h[5], h[24 * 7 + 13], h[100]);
    return 0;
}
