// Branches on threadIdx.x % 2 (divergent within a warp) and on
// (threadIdx.x / warpSize) % 2 (uniform per warp), with sin/cos loops.
#include "common.cuh"

__global__ void evenOdd(float* out)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    float a = 0.0f, b = 0.0f;
    if (tid % 2 == 0) {
        a = 100.0f;
    } else {
        b = 200.0f;
    }
    out[tid] = a + b;
}

__global__ void warpParity(float* out)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    float value = 0.0f;
    if ((tid / warpSize) % 2 == 0) {
        for (int i = 0; i < 16; ++i)
            value += sinf(i * 0.25f);
    } else {
        for (int i = 0; i < 16; ++i)
            value += cosf(i * 0.25f);
    }
    out[tid] = value;
}

// Nested branches, a data-dependent loop with break, and an early return.
__global__ void nested(const int* in, int* out, int n)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid >= n)
        return;
    int v = in[tid];
    int steps = 0;
    while (v != 1) {
        if (v % 2 == 0) {
            v /= 2;
        } else {
            if (v > 1000000)
                break;
            v = 3 * v + 1;
        }
        ++steps;
    }
    out[tid] = steps;
}

int main()
{
    const int n = 256;
    float* d_f;
    CHECK(cudaMalloc(&d_f, n * sizeof(float)));
    float h_f[n];

    evenOdd<<<n / 64, 64>>>(d_f);
    CHECK(cudaMemcpy(h_f, d_f, sizeof h_f, cudaMemcpyDeviceToHost));
    std::printf("evenOdd: %.1f %.1f %.1f %.1f\n", h_f[0], h_f[1], h_f[2], h_f[255]);

    warpParity<<<n / 64, 64>>>(d_f);
    CHECK(cudaMemcpy(h_f, d_f, sizeof h_f, cudaMemcpyDeviceToHost));
    std::printf("warpParity: %.3f %.3f %.3f %.3f\n", h_f[0], h_f[31], h_f[32], h_f[255]);

    int h_in[n], h_out[n];
    for (int i = 0; i < n; ++i)
        h_in[i] = i + 1;
    int *d_in, *d_out;
    CHECK(cudaMalloc(&d_in, sizeof h_in));
    CHECK(cudaMalloc(&d_out, sizeof h_out));
    CHECK(cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice));
    nested<<<3, 100>>>(d_in, d_out, n);
    CHECK(cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost));
    int total = 0;
    for (int i = 0; i < n; ++i)
        total += h_out[i];
    std::printf("collatz steps: 1->%d 7->%d 27->%d 97->%d total %d\n", h_out[0], h_out[6], h_out[26], h_out[96], total);
    return 0;
}
