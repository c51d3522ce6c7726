// Wide and less common atomics on global and shared memory: 64-bit atomicAdd, atomicAdd on float,
// double and __half2 (sums exact in any order, printed as bit patterns), atomicMin/Max on long long
// and unsigned long long, atomicExch on int, float and 64-bit words, atomicCAS loops for a float
// maximum and a 64-bit product, atomicInc/atomicDec wrapping, 32- and 64-bit atomicAnd/Or/Xor, the
// _block and _system scopes, and sums of returned old values that do not depend on the order.
#include <cstring>

#include <cuda_fp16.h>

#include "common.cuh"

constexpr int kBlocks = 3;
constexpr int kThreads = 128;

struct Global {
    unsigned long long add64, counter64, returned64, exch64Slot, exch64Total;
    long long minLL, maxLL;
    unsigned long long minULL, maxULL;
    unsigned long long product, and64, or64, xor64;
    double dsum;
    float fsum, fmax;
    int exchSlot, exchTotal, casWinners, casWins;
    unsigned inc, incFromAbove, dec, and32, or32, xor32;
    unsigned incReturnedSum, floatExchBits;
    int blockScope[kBlocks], systemScope;
    __half2 h2sum;
};

struct SharedResults {
    unsigned long long add64, product, or64;
    long long minLL, maxLL;
    double dsum;
    float fsum, fmax;
    unsigned inc, dec, xor32;
};

__device__ float atomicMaxFloat(float* address, float value)
{
    int* bits = reinterpret_cast<int*>(address);
    int old = *bits;
    while (__int_as_float(old) < value) {
        int assumed = old;
        old = atomicCAS(bits, assumed, __float_as_int(value));
        if (old == assumed)
            break;
    }
    return __int_as_float(old);
}

__device__ unsigned long long atomicMul64(unsigned long long* address, unsigned long long factor)
{
    unsigned long long old = *address, assumed;
    do {
        assumed = old;
        old = atomicCAS(address, assumed, assumed * factor);
    } while (old != assumed);
    return old;
}

__device__ float valueFor(int t)
{
    // -7.25 .. 8.75 in steps of 0.125: every partial sum is exact in a float.
    return (t % 129) * 0.125f - 7.25f;
}

__global__ void globalAtomics(Global* g)
{
    const int t = blockIdx.x * blockDim.x + threadIdx.x;  // 0 .. 383
    atomicAdd(&g->add64, (1ull << 33) + t);
    // The old values a counter returns are 0 .. n-1 in some order: their sum is fixed.
    atomicAdd(&g->returned64, atomicAdd(&g->counter64, 1ull));
    atomicMin(&g->minLL, (t - 200) * 1000000007ll);
    atomicMax(&g->maxLL, (t - 200) * -3000000019ll);
    atomicMin(&g->minULL, 0x8000000000000000ull + (t * 7919ull) % 1000);
    atomicMax(&g->maxULL, (t * 0x9e3779b97f4a7c15ull) >> 3);
    atomicMul64(&g->product, 2 * t + 1);
    atomicAnd(&g->and64, ~(1ull << (t % 64)) | (1ull << 63));
    atomicOr(&g->or64, 1ull << ((t * 5) % 61));
    atomicXor(&g->xor64, t * 0x0101010101010101ull);
    atomicAdd(&g->dsum, t * 0.25 - 20.0);
    atomicAdd(&g->fsum, valueFor(t));
    atomicMaxFloat(&g->fmax, valueFor(t) * (t % 2 ? -1.0f : 1.0f));
    // Every thread swaps in its own number; the old values returned plus the last value
    // are the initial value and every thread's number, in some order.
    atomicAdd(&g->exchTotal, atomicExch(&g->exchSlot, t));
    atomicAdd(&g->exch64Total, atomicExch(&g->exch64Slot, t * 0x100000000ull));
    if (atomicCAS(&g->casWinners, 0, t + 1) == 0)
        atomicAdd(&g->casWins, 1);
    atomicAdd(&g->incReturnedSum, atomicInc(&g->inc, 1000));
    atomicInc(&g->incFromAbove, 10);  // starts above the limit: the first increment wraps to 0
    atomicDec(&g->dec, 50);
    atomicAnd(&g->and32, ~(1u << (t % 32)) | 0x10000u);
    atomicOr(&g->or32, 1u << ((t * 3) % 29));
    atomicXor(&g->xor32, t * 2654435761u);
    atomicExch(reinterpret_cast<float*>(&g->floatExchBits), 2.5f);
    atomicAdd_block(&g->blockScope[blockIdx.x], static_cast<int>(threadIdx.x));
    atomicAdd_system(&g->systemScope, 2);
    atomicMax_system(&g->systemScope + 0, 0);
    atomicAdd(&g->h2sum, __floats2half2_rn(1.0f, 0.5f));
}

__global__ void sharedAtomics(SharedResults* out)
{
    __shared__ unsigned long long add64, product, or64;
    __shared__ long long minLL, maxLL;
    __shared__ double dsum;
    __shared__ float fsum, fmax;
    __shared__ unsigned inc, dec, xor32;
    const int t = threadIdx.x;
    if (t == 0) {
        add64 = 0;
        product = 1;
        or64 = 0;
        minLL = 0x7fffffffffffffffll;
        maxLL = -0x7fffffffffffffffll - 1;
        dsum = 0;
        fsum = 0;
        fmax = -1e30f;
        inc = 0;
        dec = 5;
        xor32 = 0;
    }
    __syncthreads();
    atomicAdd(&add64, 0x100000001ull * (t + 1));
    atomicMul64(&product, 3 + 2 * blockIdx.x);
    atomicOr(&or64, 1ull << (t % 64));
    atomicMin(&minLL, -(t * 0x123456789ll));
    atomicMax(&maxLL, t * 0x123456789ll - 0x7000000000000000ll);
    atomicAdd(&dsum, 1.0 / (1 << (t % 8)));
    atomicAdd(&fsum, (t % 16) * 0.5f);
    atomicMaxFloat(&fmax, (t % 37) * 0.25f - (blockIdx.x + 1));
    atomicInc(&inc, 37);
    atomicDec(&dec, 9);
    atomicXor_block(&xor32, 1u << (t % 32));
    __syncthreads();
    if (t == 0) {
        SharedResults& r = out[blockIdx.x];
        r = {add64, product, or64, minLL, maxLL, dsum, fsum, fmax, inc, dec, xor32};
    }
}

template <typename T>
unsigned long long bits(T value)
{
    unsigned long long b = 0;
    std::memcpy(&b, &value, sizeof value);
    return b;
}

int main()
{
    Global h{};
    h.minLL = 0x7fffffffffffffffll;
    h.maxLL = -0x7fffffffffffffffll - 1;
    h.minULL = ~0ull;
    h.product = 1;
    h.and64 = ~0ull;
    h.fmax = -1e30f;
    h.exchSlot = 1000;
    h.exch64Slot = 7;
    h.incFromAbove = 500;
    h.dec = 7;
    h.and32 = ~0u;
    Global* d;
    CHECK(cudaMalloc(&d, sizeof(Global)));
    CHECK(cudaMemcpy(d, &h, sizeof h, cudaMemcpyHostToDevice));
    globalAtomics<<<kBlocks, kThreads>>>(d);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost));
    std::printf("global add64 %llx, counter %llu, sum of returned old values %llu\n", h.add64, h.counter64,
                h.returned64);
    std::printf("global min/max long long %lld %lld\n", h.minLL, h.maxLL);
    std::printf("global min/max unsigned long long %llx %llx\n", h.minULL, h.maxULL);
    std::printf("global CAS product %016llx\n", h.product);
    std::printf("global and/or/xor 64 %016llx %016llx %016llx\n", h.and64, h.or64, h.xor64);
    std::printf("global double sum %016llx (%.2f)\n", bits(h.dsum), h.dsum);
    std::printf("global float sum %08llx (%.3f), CAS max %08llx (%.3f)\n", bits(h.fsum), h.fsum, bits(h.fmax), h.fmax);
    // The swaps return the initial value and every thread's number but the one left in the slot.
    std::printf("global exch: returned + last = %d, 64-bit returned + last = %llx\n", h.exchTotal + h.exchSlot,
                h.exch64Total + h.exch64Slot);
    std::printf("global CAS winner set %d, winners %d, block scope %d %d %d, system scope %d\n", h.casWinners != 0,
                h.casWins, h.blockScope[0], h.blockScope[1], h.blockScope[2], h.systemScope);
    std::printf("global inc %u (returned sum %u), inc from above %u, dec %u\n", h.inc, h.incReturnedSum, h.incFromAbove,
                h.dec);
    std::printf("global and/or/xor 32 %08x %08x %08x, float exch %08x\n", h.and32, h.or32, h.xor32, h.floatExchBits);
    std::printf("global half2 sum %04llx %04llx\n", bits(__low2half(h.h2sum)) & 0xffff,
                bits(__high2half(h.h2sum)) & 0xffff);

    SharedResults* ds;
    CHECK(cudaMalloc(&ds, 2 * sizeof(SharedResults)));
    sharedAtomics<<<2, 96>>>(ds);
    CHECK(cudaGetLastError());
    SharedResults hs[2];
    CHECK(cudaMemcpy(hs, ds, sizeof hs, cudaMemcpyDeviceToHost));
    for (int b = 0; b < 2; ++b) {
        const SharedResults& r = hs[b];
        std::printf("shared block %d: add64 %llx product %016llx or64 %016llx min %lld max %lld\n", b, r.add64,
                    r.product, r.or64, r.minLL, r.maxLL);
        std::printf("shared block %d: double %016llx float %08llx max %08llx inc %u dec %u xor %08x\n", b, bits(r.dsum),
                    bits(r.fsum), bits(r.fmax), r.inc, r.dec, r.xor32);
    }
    free_device(d, ds);
    return 0;
}
