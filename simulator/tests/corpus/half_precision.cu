// Scalar half precision (cuda_fp16.h): conversions, add, mul, fma,
// comparison and negation, checked against the same operations rounded
// to half on the host (cuda_fp16.h's host conversions).
#include "common.cuh"
#include <cuda_fp16.h>

__global__ void halfOps(const float* in, float* out)
{
    int i = threadIdx.x;
    __half a = __float2half(in[i]), b = __float2half(0.1f * i);
    __half s = __hadd(a, b), m = __hmul(a, b), f = __hfma(a, b, s);
    out[i * 5 + 0] = __half2float(s);
    out[i * 5 + 1] = __half2float(m);
    out[i * 5 + 2] = __half2float(f);
    out[i * 5 + 3] = __hlt(a, b) ? 1.0f : 0.0f;
    out[i * 5 + 4] = __half2float(__hneg(__int2half_rn(i * 1000)));
}

// A float rounded to the nearest half and back, on the host.
float toHalf(float x)
{
    return __half2float(__float2half(x));
}

int main()
{
    float in[32], out[32 * 5];
    for (int i = 0; i < 32; ++i)
        in[i] = i * 0.37f - 3.0f;
    float *din, *dout;
    CHECK(cudaMalloc(&din, sizeof in));
    CHECK(cudaMalloc(&dout, sizeof out));
    CHECK(cudaMemcpy(din, in, sizeof in, cudaMemcpyHostToDevice));
    halfOps<<<1, 32>>>(din, dout);
    CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    int mismatches = 0;
    for (int i = 0; i < 32; ++i) {
        // Rounded to half on the host; the fma's product of two halves is exact in double.
        const float a = toHalf(in[i]), b = toHalf(0.1f * i);
        const float s = toHalf(a + b), m = toHalf(a * b);
        const float f = __half2float(__double2half(static_cast<double>(a) * b + s));
        float want[5] = {s, m, f, a < b ? 1.0f : 0.0f, -toHalf(static_cast<float>(i * 1000))};
        for (int j = 0; j < 5; ++j)
            mismatches += want[j] != out[i * 5 + j];
    }
    std::printf("half precision: %d mismatches of 160\n", mismatches);
    std::printf("thread 10: %.6f %.6f %.6f %.0f %.0f\n", out[50], out[51], out[52], out[53], out[54]);
    return 0;
}
