// Calls that nvcc leaves as PTX `call`s: __noinline__ functions (scalar
// and struct results, nested calls, early returns) and the libdevice slow
// paths of double-precision sin and pow.
#include "common.cuh"
#include <cmath>

struct Pair {
    int lo, hi;
};

__device__ __noinline__ int clampedSquare(int x, int limit)
{
    if (x < 0)
        return 0;
    int s = x * x;
    return s > limit ? limit : s;
}

__device__ __noinline__ Pair split(int v)
{
    Pair p;
    p.lo = clampedSquare(v % 100, 5000);
    p.hi = v / 100;
    return p;
}

__global__ void useFunctions(int* out)
{
    int t = threadIdx.x;
    Pair p = split(t * 37 - 200);
    out[t] = p.lo + 1000 * p.hi;
}

__global__ void slowPaths(double* out)
{
    int t = threadIdx.x;
    out[t] = sin(1e10 + t * 12345.678) + pow(1.5, t * 0.37);
}

int main()
{
    int* d;
    CHECK(cudaMalloc(&d, 64 * sizeof(int)));
    useFunctions<<<1, 64>>>(d);
    int h[64];
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    long long sum = 0;
    for (int v : h)
        sum += v;
    std::printf("functions: %d %d %d sum %lld\n", h[0], h[10], h[63], sum);

    double* dd;
    CHECK(cudaMalloc(&dd, 32 * sizeof(double)));
    slowPaths<<<1, 32>>>(dd);
    double hd[32];
    CHECK(cudaMemcpy(hd, dd, sizeof hd, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < 32; ++i) {
        double want = std::sin(1e10 + i * 12345.678) + std::pow(1.5, i * 0.37);
        if (std::fabs(want - hd[i]) > 1e-12)
            ++bad;
    }
    std::printf("double sin/pow slow paths: %d of 32 differ from the host\n", bad);
    return 0;
}
