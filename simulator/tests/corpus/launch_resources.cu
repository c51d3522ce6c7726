// Launches that ask for more than a block may have: more threads than
// __launch_bounds__ allows, or more registers than an SM holds.
#include "common.cuh"

__global__ void __launch_bounds__(256) bounded(float* a)
{
    a[threadIdx.x] = 1.0f;
}

// Forty live doubles per thread need far more than 64 registers.
__global__ void registerHungry(double* a, int n)
{
    double v[40];
#pragma unroll
    for (int i = 0; i < 40; ++i)
        v[i] = a[i * n + threadIdx.x];
    double s = 0;
#pragma unroll
    for (int i = 0; i < 40; ++i)
        for (int j = 0; j < 40; ++j)
            s += v[i] * v[(i + j) % 40];
    a[threadIdx.x] = s;
}

int main()
{
    float* f;
    CHECK(cudaMalloc(&f, 1024 * sizeof(float)));
    bounded<<<1, 256>>>(f);
    std::printf("bounded, 256 threads: %s\n", cudaGetErrorName(cudaGetLastError()));
    bounded<<<1, 512>>>(f);
    std::printf("bounded, 512 threads: %s\n", cudaGetErrorName(cudaGetLastError()));

    double* d;
    CHECK(cudaMalloc(&d, 40 * 1024 * sizeof(double)));
    CHECK(cudaMemset(d, 0, 40 * 1024 * sizeof(double)));
    cudaFuncAttributes attr;
    CHECK(cudaFuncGetAttributes(&attr, registerHungry));
    std::printf("registerHungry uses more than 64 registers: %d\n", attr.numRegs > 64);
    registerHungry<<<1, 1024>>>(d, 1024);
    std::printf("registerHungry, 1024 threads: %s\n", cudaGetErrorName(cudaGetLastError()));
    registerHungry<<<1, attr.maxThreadsPerBlock>>>(d, 1024);
    std::printf("registerHungry, maxThreadsPerBlock threads: %s\n", cudaGetErrorName(cudaGetLastError()));
    CHECK(cudaDeviceSynchronize());
    return 0;
}
