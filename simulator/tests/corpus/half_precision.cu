// Scalar half precision (cuda_fp16.h): conversions, add, mul, fma,
// comparison and negation, checked against the host's _Float16.
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
        _Float16 a = static_cast<_Float16>(in[i]), b = static_cast<_Float16>(0.1f * i);
        _Float16 s = static_cast<_Float16>(static_cast<float>(a) + static_cast<float>(b));
        _Float16 m = static_cast<_Float16>(static_cast<float>(a) * static_cast<float>(b));
        _Float16 f = static_cast<_Float16>(static_cast<double>(a) * static_cast<double>(b) + static_cast<double>(s));
        float want[5] = {static_cast<float>(s), static_cast<float>(m), static_cast<float>(f),
                         static_cast<float>(a) < static_cast<float>(b) ? 1.0f : 0.0f,
                         -static_cast<float>(static_cast<_Float16>(i * 1000))};
        for (int j = 0; j < 5; ++j)
            mismatches += want[j] != out[i * 5 + j];
    }
    std::printf("half precision: %d mismatches of 160\n", mismatches);
    std::printf("thread 10: %.6f %.6f %.6f %.0f %.0f\n", out[50], out[51], out[52], out[53], out[54]);
    return 0;
}
