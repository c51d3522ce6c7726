// Arithmetic and conversion intrinsics with an explicit rounding mode (_rn, _rz, _rd, _ru), in
// float and double: add, mul, div, reciprocal, square root, fma; int, unsigned, long long to float
// and double; float and double to int; double to float. The inputs are chosen where the four
// roundings differ (ties, values between two representable numbers, overflow, subnormals); every
// result is printed as its bit pattern.
#include <cstring>

#include "common.cuh"

constexpr int kFloatOps = 6;
constexpr int kModes = 4;

// out[(i * kFloatOps + op) * kModes + mode]
__global__ void floatOps(const float* a, const float* b, const float* c, unsigned* out, int n)
{
    int i = threadIdx.x;
    if (i >= n)
        return;
    const float x = a[i], y = b[i], z = c[i];
    unsigned* o = out + i * kFloatOps * kModes;
    const float r[kFloatOps * kModes] = {
        __fadd_rn(x, y),    __fadd_rz(x, y),    __fadd_rd(x, y),    __fadd_ru(x, y),    __fmul_rn(x, y),
        __fmul_rz(x, y),    __fmul_rd(x, y),    __fmul_ru(x, y),    __fdiv_rn(x, y),    __fdiv_rz(x, y),
        __fdiv_rd(x, y),    __fdiv_ru(x, y),    __frcp_rn(y),       __frcp_rz(y),       __frcp_rd(y),
        __frcp_ru(y),       __fsqrt_rn(x),      __fsqrt_rz(x),      __fsqrt_rd(x),      __fsqrt_ru(x),
        __fmaf_rn(x, y, z), __fmaf_rz(x, y, z), __fmaf_rd(x, y, z), __fmaf_ru(x, y, z),
    };
    for (int k = 0; k < kFloatOps * kModes; ++k)
        o[k] = __float_as_uint(r[k]);
}

__global__ void doubleOps(const double* a, const double* b, const double* c, unsigned long long* out, int n)
{
    int i = threadIdx.x;
    if (i >= n)
        return;
    const double x = a[i], y = b[i], z = c[i];
    unsigned long long* o = out + i * kFloatOps * kModes;
    const double r[kFloatOps * kModes] = {
        __dadd_rn(x, y), __dadd_rz(x, y), __dadd_rd(x, y),   __dadd_ru(x, y),   __dmul_rn(x, y),   __dmul_rz(x, y),
        __dmul_rd(x, y), __dmul_ru(x, y), __ddiv_rn(x, y),   __ddiv_rz(x, y),   __ddiv_rd(x, y),   __ddiv_ru(x, y),
        __drcp_rn(y),    __drcp_rz(y),    __drcp_rd(y),      __drcp_ru(y),      __dsqrt_rn(x),     __dsqrt_rz(x),
        __dsqrt_rd(x),   __dsqrt_ru(x),   __fma_rn(x, y, z), __fma_rz(x, y, z), __fma_rd(x, y, z), __fma_ru(x, y, z),
    };
    for (int k = 0; k < kFloatOps * kModes; ++k)
        o[k] = static_cast<unsigned long long>(__double_as_longlong(r[k]));
}

constexpr int kIntConversions = 6;

// From integers: int, unsigned and long long to float; long long and unsigned long long to double.
__global__ void fromIntegers(const long long* in, unsigned long long* out, int n)
{
    int i = threadIdx.x;
    if (i >= n)
        return;
    const long long v = in[i];
    const int iv = static_cast<int>(v);
    const unsigned uv = static_cast<unsigned>(v);
    const unsigned long long ulv = static_cast<unsigned long long>(v);
    unsigned long long* o = out + i * kIntConversions * kModes;
    const float f[4 * kModes] = {
        __int2float_rn(iv),  __int2float_rz(iv),  __int2float_rd(iv),  __int2float_ru(iv),
        __uint2float_rn(uv), __uint2float_rz(uv), __uint2float_rd(uv), __uint2float_ru(uv),
        __ll2float_rn(v),    __ll2float_rz(v),    __ll2float_rd(v),    __ll2float_ru(v),
        __ull2float_rn(ulv), __ull2float_rz(ulv), __ull2float_rd(ulv), __ull2float_ru(ulv),
    };
    const double d[2 * kModes] = {
        __ll2double_rn(v),    __ll2double_rz(v),    __ll2double_rd(v),    __ll2double_ru(v),
        __ull2double_rn(ulv), __ull2double_rz(ulv), __ull2double_rd(ulv), __ull2double_ru(ulv),
    };
    for (int k = 0; k < 4 * kModes; ++k)
        o[k] = __float_as_uint(f[k]);
    for (int k = 0; k < 2 * kModes; ++k)
        o[4 * kModes + k] = static_cast<unsigned long long>(__double_as_longlong(d[k]));
}

constexpr int kToConversions = 7;

// To integers and to float: float to int, unsigned and long long; double to int, long long and
// unsigned; double to float.
__global__ void toIntegers(const double* in, unsigned long long* out, int n)
{
    int i = threadIdx.x;
    if (i >= n)
        return;
    const double d = in[i];
    const float f = static_cast<float>(d);
    unsigned long long* o = out + i * kToConversions * kModes;
    const long long r[6 * kModes] = {
        __float2int_rn(f),   __float2int_rz(f),   __float2int_rd(f),   __float2int_ru(f),   __float2uint_rn(f),
        __float2uint_rz(f),  __float2uint_rd(f),  __float2uint_ru(f),  __float2ll_rn(f),    __float2ll_rz(f),
        __float2ll_rd(f),    __float2ll_ru(f),    __double2int_rn(d),  __double2int_rz(d),  __double2int_rd(d),
        __double2int_ru(d),  __double2ll_rn(d),   __double2ll_rz(d),   __double2ll_rd(d),   __double2ll_ru(d),
        __double2uint_rn(d), __double2uint_rz(d), __double2uint_rd(d), __double2uint_ru(d),
    };
    for (int k = 0; k < 6 * kModes; ++k)
        o[k] = static_cast<unsigned long long>(r[k]);
    const float g[kModes] = {__double2float_rn(d), __double2float_rz(d), __double2float_rd(d), __double2float_ru(d)};
    for (int k = 0; k < kModes; ++k)
        o[6 * kModes + k] = __float_as_uint(g[k]);
}

template <typename T>
T* toDevice(const T* host, int n)
{
    T* d;
    CHECK(cudaMalloc(&d, n * sizeof(T)));
    CHECK(cudaMemcpy(d, host, n * sizeof(T), cudaMemcpyHostToDevice));
    return d;
}

float floatFromBits(unsigned bits)
{
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
}

double doubleFromBits(unsigned long long bits)
{
    double d;
    std::memcpy(&d, &bits, sizeof d);
    return d;
}

int main()
{
    const char* opNames[kFloatOps] = {"add", "mul", "div", "rcp(b)", "sqrt(a)", "fma"};

    // Float operands (a, b, c) as bit patterns.
    const unsigned fbits[][3] = {
        {0x3f800000, 0x30800000, 0x3f800000},  // 1, 2^-30, 1: far below half an ulp
        {0x3f800000, 0xb0800000, 0xbf800000},  // 1, -2^-30, -1
        {0x3f800001, 0x3f800001, 0xbf800000},  // (1 + 2^-23)^2 - 1
        {0x3eaaaaab, 0x40400000, 0xbf800000},  // 1/3, 3, -1
        {0x40000000, 0x40400000, 0x00000000},  // 2, 3
        {0xc0000000, 0x40400000, 0x80000000},  // -2, 3, -0
        {0x7f7fffff, 0x40000000, 0xff7fffff},  // overflow
        {0x00800000, 0x3f000001, 0x00000001},  // subnormal results
        {0x4b000001, 0x3f000000, 0x3f800000},  // 2^23 + 1, 0.5: a tie
        {0x40a00000, 0xc0e00000, 0x3f800000},  // 5, -7
    };
    const int nf = sizeof fbits / sizeof fbits[0];
    float fa[nf], fb[nf], fc[nf];
    for (int i = 0; i < nf; ++i) {
        fa[i] = floatFromBits(fbits[i][0]);
        fb[i] = floatFromBits(fbits[i][1]);
        fc[i] = floatFromBits(fbits[i][2]);
    }
    unsigned* dfout;
    CHECK(cudaMalloc(&dfout, nf * kFloatOps * kModes * sizeof(unsigned)));
    floatOps<<<1, 32>>>(toDevice(fa, nf), toDevice(fb, nf), toDevice(fc, nf), dfout, nf);
    CHECK(cudaGetLastError());
    unsigned fout[nf * kFloatOps * kModes];
    CHECK(cudaMemcpy(fout, dfout, sizeof fout, cudaMemcpyDeviceToHost));
    std::printf("float a b c: op rn rz rd ru\n");
    for (int i = 0; i < nf; ++i) {
        std::printf("%08x %08x %08x:", fbits[i][0], fbits[i][1], fbits[i][2]);
        for (int op = 0; op < kFloatOps; ++op) {
            const unsigned* r = fout + (i * kFloatOps + op) * kModes;
            std::printf(" %s %08x %08x %08x %08x%s", opNames[op], r[0], r[1], r[2], r[3], op == 2 ? "\n   " : "");
        }
        std::printf("\n");
    }

    const unsigned long long dbits[][3] = {
        {0x3ff0000000000000, 0x3c00000000000000, 0x3ff0000000000000},  // 1, 2^-63, 1
        {0x3ff0000000000000, 0xbc00000000000000, 0xbff0000000000000},  // 1, -2^-63, -1
        {0x3ff0000000000001, 0x3ff0000000000001, 0xbff0000000000000},  // (1 + 2^-52)^2 - 1
        {0x3fd5555555555555, 0x4008000000000000, 0xbff0000000000000},  // 1/3, 3, -1
        {0x4000000000000000, 0x4008000000000000, 0x0000000000000000},  // 2, 3
        {0xc000000000000000, 0x4008000000000000, 0x8000000000000000},  // -2, 3, -0
        {0x7fefffffffffffff, 0x4000000000000000, 0xffefffffffffffff},  // overflow
        {0x0010000000000000, 0x3fe0000000000001, 0x0000000000000001},  // subnormal results
        {0x4330000000000001, 0x3fe0000000000000, 0x3ff0000000000000},  // 2^52 + 1, 0.5: a tie
        {0x4014000000000000, 0xc01c000000000000, 0x3ff0000000000000},  // 5, -7
    };
    const int dcount = sizeof dbits / sizeof dbits[0];
    double da[dcount], db[dcount], dc[dcount];
    for (int i = 0; i < dcount; ++i) {
        da[i] = doubleFromBits(dbits[i][0]);
        db[i] = doubleFromBits(dbits[i][1]);
        dc[i] = doubleFromBits(dbits[i][2]);
    }
    unsigned long long* ddout;
    CHECK(cudaMalloc(&ddout, dcount * kFloatOps * kModes * sizeof(unsigned long long)));
    doubleOps<<<1, 32>>>(toDevice(da, dcount), toDevice(db, dcount), toDevice(dc, dcount), ddout, dcount);
    CHECK(cudaGetLastError());
    unsigned long long dout[dcount * kFloatOps * kModes];
    CHECK(cudaMemcpy(dout, ddout, sizeof dout, cudaMemcpyDeviceToHost));
    std::printf("double a b c: op rn rz rd ru\n");
    for (int i = 0; i < dcount; ++i) {
        std::printf("%016llx %016llx %016llx:\n", dbits[i][0], dbits[i][1], dbits[i][2]);
        for (int op = 0; op < kFloatOps; ++op) {
            const unsigned long long* r = dout + (i * kFloatOps + op) * kModes;
            std::printf("   %-7s %016llx %016llx %016llx %016llx\n", opNames[op], r[0], r[1], r[2], r[3]);
        }
    }

    const long long ints[] = {
        16777217,              // 2^24 + 1
        -16777217,             // -(2^24 + 1)
        16777219,              // 2^24 + 3: a tie, rounds to even (up)
        0x7fffffff,            // INT_MAX
        -0x7fffffff - 1,       // INT_MIN
        0xffffffffll,          // as unsigned, UINT_MAX
        (1ll << 53) + 1,       // 2^53 + 1
        -((1ll << 53) + 3),    // a double tie
        0x7fffffffffffffffll,  // LLONG_MAX
        -0x7fffffffffffffffll - 1,
        -1,  // as unsigned long long, ULLONG_MAX
        12345,
    };
    const int ni = sizeof ints / sizeof ints[0];
    unsigned long long* diout;
    CHECK(cudaMalloc(&diout, ni * kIntConversions * kModes * sizeof(unsigned long long)));
    fromIntegers<<<1, 32>>>(toDevice(ints, ni), diout, ni);
    CHECK(cudaGetLastError());
    unsigned long long iout[ni * kIntConversions * kModes];
    CHECK(cudaMemcpy(iout, diout, sizeof iout, cudaMemcpyDeviceToHost));
    const char* fromNames[kIntConversions] = {"int2float", "uint2float", "ll2float",
                                              "ull2float", "ll2double",  "ull2double"};
    std::printf("integer: conversion rn rz rd ru\n");
    for (int i = 0; i < ni; ++i) {
        std::printf("%lld:\n", ints[i]);
        for (int c = 0; c < kIntConversions; ++c) {
            const unsigned long long* r = iout + (i * kIntConversions + c) * kModes;
            std::printf("   %-10s %llx %llx %llx %llx\n", fromNames[c], r[0], r[1], r[2], r[3]);
        }
    }

    const unsigned long long tbits[] = {
        0x4004000000000000,  // 2.5
        0xc004000000000000,  // -2.5
        0x400c000000000000,  // 3.5
        0xbfe0000000000000,  // -0.5
        0x3ff0000000000001,  // 1 + 2^-52
        0xbff8000000000000,  // -1.5
        0x4202a05f20000000,  // 1e10: too large for int
        0xc202a05f20000000,  // -1e10
        0x41efffffffe00000,  // 4294967295.0
        0x43e0000000000000,  // 2^63
        0x7ff8000000000000,  // NaN
        0x3fd5555555555555,  // 1/3
        0x47efffffe0000001,  // just above the largest float
        0x3690000000000000,  // 2^-150: a tie between 0 and the smallest float subnormal
        0xb698000000000000,  // -(0.75 * 2^-149)
        0x7ff0000000000000,  // infinity
    };
    const int nt = sizeof tbits / sizeof tbits[0];
    double tin[nt];
    for (int i = 0; i < nt; ++i)
        tin[i] = doubleFromBits(tbits[i]);
    unsigned long long* dtout;
    CHECK(cudaMalloc(&dtout, nt * kToConversions * kModes * sizeof(unsigned long long)));
    toIntegers<<<1, 32>>>(toDevice(tin, nt), dtout, nt);
    CHECK(cudaGetLastError());
    unsigned long long tout[nt * kToConversions * kModes];
    CHECK(cudaMemcpy(tout, dtout, sizeof tout, cudaMemcpyDeviceToHost));
    const char* toNames[kToConversions] = {"float2int", "float2uint",  "float2ll",    "double2int",
                                           "double2ll", "double2uint", "double2float"};
    std::printf("double (float = the double rounded to nearest): conversion rn rz rd ru\n");
    for (int i = 0; i < nt; ++i) {
        std::printf("%016llx:\n", tbits[i]);
        for (int c = 0; c < kToConversions; ++c) {
            const unsigned long long* r = tout + (i * kToConversions + c) * kModes;
            std::printf("   %-12s %llx %llx %llx %llx\n", toNames[c], r[0], r[1], r[2], r[3]);
        }
    }
    return 0;
}
