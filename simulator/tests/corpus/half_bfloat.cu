// __half and __nv_bfloat16, printed as bit patterns: conversions from float with each rounding
// (_rn, _rz, _rd, _ru) and from double, back to float, over ties, subnormals, overflow to infinity,
// infinities and NaNs; scalar arithmetic (__hadd, __hsub, __hmul including x * -0, __hfma, __hdiv,
// __hneg, __habs), __hmax/__hmin and their _nan forms, comparisons (ordered and unordered),
// __hisnan/__hisinf; and the paired types' __hadd2, __hmul2, __hfma2, __hneg2.
// Every operation takes its operands from memory: no two are chained, so none can be fused.
#include <cstring>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "common.cuh"

constexpr int kConversions = 12;

__global__ void conversions(const unsigned* in, const double* din, unsigned short* out, unsigned* back, int n)
{
    int i = threadIdx.x;
    if (i >= n)
        return;
    float x;
    std::memcpy(&x, &in[i], sizeof x);
    unsigned short* o = out + i * kConversions;
    o[0] = __half_as_ushort(__float2half_rn(x));
    o[1] = __half_as_ushort(__float2half_rz(x));
    o[2] = __half_as_ushort(__float2half_rd(x));
    o[3] = __half_as_ushort(__float2half_ru(x));
    o[4] = __bfloat16_as_ushort(__float2bfloat16_rn(x));
    o[5] = __bfloat16_as_ushort(__float2bfloat16_rz(x));
    o[6] = __bfloat16_as_ushort(__float2bfloat16_rd(x));
    o[7] = __bfloat16_as_ushort(__float2bfloat16_ru(x));
    o[8] = __half_as_ushort(__double2half(din[i]));
    o[9] = __bfloat16_as_ushort(__double2bfloat16(din[i]));
    o[10] = __half_as_ushort(__float2half(x));
    o[11] = __bfloat16_as_ushort(__float2bfloat16(x));
    back[i * 2] = __float_as_uint(__half2float(__ushort_as_half(static_cast<unsigned short>(in[i] >> 16))));
    back[i * 2 + 1] = __float_as_uint(__bfloat162float(__ushort_as_bfloat16(static_cast<unsigned short>(in[i]))));
}

constexpr int kOps = 22;

template <typename T>
__device__ T fromBits(unsigned short bits);
template <>
__device__ __half fromBits<__half>(unsigned short bits)
{
    return __ushort_as_half(bits);
}
template <>
__device__ __nv_bfloat16 fromBits<__nv_bfloat16>(unsigned short bits)
{
    return __ushort_as_bfloat16(bits);
}
__device__ unsigned short toBits(__half h)
{
    return __half_as_ushort(h);
}
__device__ unsigned short toBits(__nv_bfloat16 h)
{
    return __bfloat16_as_ushort(h);
}

template <typename T>
__global__ void arithmetic(const unsigned short* in, unsigned short* out, int n)
{
    int i = threadIdx.x;
    if (i >= n)
        return;
    const T a = fromBits<T>(in[i * 3]), b = fromBits<T>(in[i * 3 + 1]), c = fromBits<T>(in[i * 3 + 2]);
    unsigned short* o = out + i * kOps;
    o[0] = toBits(__hadd(a, b));
    o[1] = toBits(__hsub(a, b));
    o[2] = toBits(__hmul(a, b));
    o[3] = toBits(__hfma(a, b, c));
    o[4] = toBits(__hdiv(a, b));
    o[5] = toBits(__hneg(a));
    o[6] = toBits(__habs(a));
    o[7] = toBits(__hmax(a, b));
    o[8] = toBits(__hmin(a, b));
    o[9] = toBits(__hmax_nan(a, b));
    o[10] = toBits(__hmin_nan(a, b));
    o[11] = __heq(a, b);
    o[12] = __hne(a, b);
    o[13] = __hlt(a, b);
    o[14] = __hle(a, b);
    o[15] = __hgt(a, b);
    o[16] = __hge(a, b);
    o[17] = __hequ(a, b);
    o[18] = __hneu(a, b);
    o[19] = __hltu(a, b);
    o[20] = __hisnan(a);
    o[21] = __hisinf(a);
}

constexpr int kPairOps = 4;

__global__ void pairs(const unsigned short* in, unsigned* out, int n)
{
    int i = threadIdx.x;
    if (i >= n)
        return;
    const unsigned short a = in[i * 3], b = in[i * 3 + 1], c = in[i * 3 + 2];
    // The pair (a, b) with (b, c) and (c, a).
    const __half2 ha = __halves2half2(__ushort_as_half(a), __ushort_as_half(b));
    const __half2 hb = __halves2half2(__ushort_as_half(b), __ushort_as_half(c));
    const __half2 hc = __halves2half2(__ushort_as_half(c), __ushort_as_half(a));
    const __nv_bfloat162 ba = __halves2bfloat162(__ushort_as_bfloat16(a), __ushort_as_bfloat16(b));
    const __nv_bfloat162 bb = __halves2bfloat162(__ushort_as_bfloat16(b), __ushort_as_bfloat16(c));
    const __nv_bfloat162 bc = __halves2bfloat162(__ushort_as_bfloat16(c), __ushort_as_bfloat16(a));
    unsigned* o = out + i * 2 * kPairOps;
    __half2 h[kPairOps] = {__hadd2(ha, hb), __hmul2(ha, hb), __hfma2(ha, hb, hc), __hneg2(ha)};
    __nv_bfloat162 bf[kPairOps] = {__hadd2(ba, bb), __hmul2(ba, bb), __hfma2(ba, bb, bc), __hneg2(ba)};
    for (int k = 0; k < kPairOps; ++k) {
        o[k] = __half_as_ushort(__low2half(h[k])) | static_cast<unsigned>(__half_as_ushort(__high2half(h[k]))) << 16;
        o[kPairOps + k] = __bfloat16_as_ushort(__low2bfloat16(bf[k])) |
                          static_cast<unsigned>(__bfloat16_as_ushort(__high2bfloat16(bf[k]))) << 16;
    }
}

template <typename T>
void printArithmetic(const char* type, const unsigned short* operands, int n)
{
    unsigned short *din, *dout;
    CHECK(cudaMalloc(&din, n * 3 * sizeof(unsigned short)));
    CHECK(cudaMalloc(&dout, n * kOps * sizeof(unsigned short)));
    CHECK(cudaMemcpy(din, operands, n * 3 * sizeof(unsigned short), cudaMemcpyHostToDevice));
    arithmetic<T><<<1, 32>>>(din, dout, n);
    CHECK(cudaGetLastError());
    unsigned short h[32 * kOps];
    CHECK(cudaMemcpy(h, dout, n * kOps * sizeof(unsigned short), cudaMemcpyDeviceToHost));
    std::printf("%s a b c: add sub mul fma div neg abs max min max_nan min_nan | eq ne lt le gt ge equ neu ltu "
                "isnan isinf\n",
                type);
    for (int i = 0; i < n; ++i) {
        std::printf("%04x %04x %04x:", operands[i * 3], operands[i * 3 + 1], operands[i * 3 + 2]);
        for (int k = 0; k < 11; ++k)
            std::printf(" %04x", h[i * kOps + k]);
        std::printf(" |");
        for (int k = 11; k < kOps; ++k)
            std::printf(" %u", h[i * kOps + k]);
        std::printf("\n");
    }
    free_device(din, dout);
}

int main()
{
    // Float inputs as bit patterns, and a double next to each.
    const unsigned floats[] = {
        0x3f801000,  // 1 + 2^-11: a half tie, rounds to even (down)
        0x3f803000,  // 1 + 3 * 2^-11: a half tie, rounds to even (up)
        0xbf801000,  // -(1 + 2^-11)
        0x3eaaaaab,  // 1/3
        0x477fe000,  // 65504, the largest half
        0x477fefff,  // just below 65520: rounds to 65504
        0x477ff000,  // 65520: a tie that rounds to infinity
        0x49742400,  // 1e6
        0xc9742400,  // -1e6
        0x33800000,  // 2^-24, the smallest half subnormal
        0x33000000,  // 2^-25: a tie between 0 and 2^-24
        0x33400000,  // 3 * 2^-26
        0xb2800000,  // -2^-26
        0x33c00000,  // 1.5 * 2^-24: a tie between subnormals 1 and 2
        0x387fffff,  // just below 2^-14, the smallest half normal
        0x3f808000,  // 1 + 2^-8: a bfloat16 tie, rounds to even (down)
        0x3f818000,  // 1 + 3 * 2^-8: a bfloat16 tie, rounds to even (up)
        0x3f80ffff,  // just below 1 + 2^-7
        0x7f7fffff,  // the largest float: bfloat16 rn overflows to infinity
        0x00018000,  // a float subnormal, a bfloat16 tie
        0x80000001,  // the smallest negative float subnormal
        0x80000000,  // -0
        0x7f800000,  // infinity
        0xff800000,  // -infinity
        0x7fc00000,  // quiet NaN
        0x7f800001,  // signalling NaN
        0xffc12345,  // negative NaN with a payload
        0x3dcccccd,  // 0.1
    };
    const int n = sizeof floats / sizeof floats[0];
    double doubles[n];
    for (int i = 0; i < n; ++i) {
        float f;
        std::memcpy(&f, &floats[i], sizeof f);
        // Slightly above the float, so that conversion straight from double sees no tie.
        doubles[i] = static_cast<double>(f) * (1.0 + 0x1p-40);
    }
    unsigned* din;
    double* ddin;
    unsigned short* dout;
    unsigned* dback;
    CHECK(cudaMalloc(&din, sizeof floats));
    CHECK(cudaMalloc(&ddin, sizeof doubles));
    CHECK(cudaMalloc(&dout, n * kConversions * sizeof(unsigned short)));
    CHECK(cudaMalloc(&dback, n * 2 * sizeof(unsigned)));
    CHECK(cudaMemcpy(din, floats, sizeof floats, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(ddin, doubles, sizeof doubles, cudaMemcpyHostToDevice));
    conversions<<<1, 32>>>(din, ddin, dout, dback, n);
    CHECK(cudaGetLastError());
    unsigned short out[n * kConversions];
    unsigned back[n * 2];
    CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(back, dback, sizeof back, cudaMemcpyDeviceToHost));
    std::printf("float    : half rn rz rd ru | bf16 rn rz rd ru | from double: half bf16 | default: half bf16 | "
                "float from the high half as half, the low half as bf16\n");
    for (int i = 0; i < n; ++i) {
        const unsigned short* o = out + i * kConversions;
        std::printf("%08x : %04x %04x %04x %04x | %04x %04x %04x %04x | %04x %04x | %04x %04x | %08x %08x\n", floats[i],
                    o[0], o[1], o[2], o[3], o[4], o[5], o[6], o[7], o[8], o[9], o[10], o[11], back[i * 2],
                    back[i * 2 + 1]);
    }

    const unsigned short halves[] = {
        0x3c00, 0x8000, 0x0000,  // 1 * -0 = -0
        0x8000, 0x0000, 0x8000,  // -0 + 0 = +0
        0x3c01, 0x3c01, 0xbc00,  // (1 + 2^-10)^2 - 1: fma keeps the low bits
        0x7bff, 0x7bff, 0xfbff,  // overflow
        0x0001, 0x0001, 0x0000,  // subnormals
        0x0400, 0x3800, 0x8001,  // the smallest normal times 0.5
        0x3c00, 0x4200, 0x0000,  // 1 / 3
        0x4500, 0x4200, 0x3c00,  // 5 / 3
        0xc200, 0x3555, 0x3c00,  // -3 * 1/3 + 1
        0x3c00, 0x7e00, 0x3c00,  // NaN
        0x7c00, 0xfc00, 0x0000,  // inf - inf
        0x7c00, 0x3c00, 0x7c00,  // inf
        0x0000, 0x8000, 0x0000,  // +0 and -0 compare equal
        0x4248, 0xc0f0, 0x3a00,  // 3.140625, -2.46875, 0.75
    };
    const unsigned short bfloats[] = {
        0x3f80, 0x8000, 0x0000,  // 1 * -0 = -0
        0x8000, 0x0000, 0x8000,  // -0 + 0 = +0
        0x3f81, 0x3f81, 0xbf80,  // (1 + 2^-7)^2 - 1
        0x7f7f, 0x7f7f, 0xff7f,  // overflow
        0x0001, 0x0001, 0x0000,  // subnormals
        0x0080, 0x3f00, 0x8001,  // the smallest normal times 0.5
        0x3f80, 0x4040, 0x0000,  // 1 / 3
        0x40a0, 0x4040, 0x3f80,  // 5 / 3
        0xc040, 0x3eab, 0x3f80,  // -3 * 1/3 + 1
        0x3f80, 0x7fc0, 0x3f80,  // NaN
        0x7f80, 0xff80, 0x0000,  // inf - inf
        0x7f80, 0x3f80, 0x7f80,  // inf
        0x0000, 0x8000, 0x0000,  // +0 and -0 compare equal
        0x4049, 0xc01e, 0x3f40,  // 3.140625, -2.46875, 0.75
    };
    const int m = sizeof halves / sizeof halves[0] / 3;
    printArithmetic<__half>("half", halves, m);
    printArithmetic<__nv_bfloat16>("bf16", bfloats, m);

    unsigned short* dpairs;
    unsigned* dpairOut;
    CHECK(cudaMalloc(&dpairs, sizeof halves));
    CHECK(cudaMalloc(&dpairOut, m * 2 * kPairOps * sizeof(unsigned)));
    CHECK(cudaMemcpy(dpairs, halves, sizeof halves, cudaMemcpyHostToDevice));
    pairs<<<1, 32>>>(dpairs, dpairOut, m);
    CHECK(cudaGetLastError());
    unsigned pairOut[m * 2 * kPairOps];
    CHECK(cudaMemcpy(pairOut, dpairOut, sizeof pairOut, cudaMemcpyDeviceToHost));
    std::printf("half2 add mul fma neg | bfloat162 add mul fma neg (same bits as operands)\n");
    for (int i = 0; i < m; ++i) {
        std::printf("%d:", i);
        for (int k = 0; k < 2 * kPairOps; ++k)
            std::printf(" %08x", pairOut[i * 2 * kPairOps + k]);
        std::printf("\n");
    }
    free_device(din, ddin, dout, dback, dpairs, dpairOut);
    return 0;
}
