// Atomic read-modify-write operations on global and shared memory.
#include "common.cuh"

struct Results {
    int add, sub, minv, maxv, exch_seen, cas_winners, andv, orv, xorv;
    unsigned inc, dec;
    float fadd;
    double dadd;
    unsigned long long ull;
    int shared_hist[8];
};

__global__ void globalAtomics(Results* r)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;  // 0..255
    atomicAdd(&r->add, t);
    atomicSub(&r->sub, 1);
    atomicMin(&r->minv, 1000 - t);
    atomicMax(&r->maxv, t * 3);
    atomicExch(&r->exch_seen, 7);
    if (atomicCAS(&r->cas_winners, 0, t + 1) == 0)
        atomicAdd(&r->add, 0);
    atomicAnd(&r->andv, ~(1 << (t % 31)));
    atomicOr(&r->orv, 1 << (t % 20));
    atomicXor(&r->xorv, t);
    atomicInc(&r->inc, 99);  // wraps to 0 after 99
    atomicDec(&r->dec, 1000);
    atomicAdd(&r->fadd, 0.5f);
    atomicAdd(&r->dadd, 0.25);
    atomicAdd(&r->ull, 1ull << 33);
    __threadfence();
}

__global__ void sharedHistogram(Results* r)
{
    __shared__ int hist[8];
    if (threadIdx.x < 8)
        hist[threadIdx.x] = 0;
    __syncthreads();
    atomicAdd(&hist[threadIdx.x % 8], 1 + threadIdx.x % 3);
    __syncthreads();
    if (threadIdx.x < 8)
        atomicAdd(&r->shared_hist[threadIdx.x], hist[threadIdx.x]);
}

int main()
{
    Results h = {};
    h.minv = 1 << 30;
    h.andv = -1;
    h.dec = 500;
    Results* d;
    CHECK(cudaMalloc(&d, sizeof h));
    CHECK(cudaMemcpy(d, &h, sizeof h, cudaMemcpyHostToDevice));
    globalAtomics<<<2, 128>>>(d);
    sharedHistogram<<<4, 96>>>(d);
    CHECK(cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost));
    std::printf("add %d sub %d min %d max %d exch %d cas-nonzero %d\n", h.add, h.sub, h.minv, h.maxv, h.exch_seen,
                h.cas_winners != 0);
    std::printf("and %08x or %08x xor %d inc %u dec %u\n", h.andv, h.orv, h.xorv, h.inc, h.dec);
    std::printf("float %.1f double %.2f ull %llu\n", h.fadd, h.dadd, h.ull);
    std::printf("shared histogram:");
    for (int i = 0; i < 8; ++i)
        std::printf(" %d", h.shared_hist[i]);
    std::printf("\n");
    return 0;
}
