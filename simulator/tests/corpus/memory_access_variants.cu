// Ways of touching memory beyond plain loads and stores: vector types (float4, int2, double2,
// char4, short2, uchar2) and an alignas(16) struct copied whole; the load and store cache-hint
// intrinsics (__ldg, __ldca, __ldcg, __ldcs, __ldlu, __ldcv, __stwb, __stcg, __stcs, __stwt);
// const __restrict__ pointers; byte and half-word stores into shared memory read back as words;
// volatile shared memory; memcpy and memset in device code; the address-space predicates
// (__isGlobal, __isShared, __isLocal, __isConstant) and __cvta_generic_to_shared;
// __syncthreads_count/_and/_or, __syncwarp with a mask, the memory fences and __nanosleep.
#include <cstring>

#include "common.cuh"

struct alignas(16) Particle {
    float x, y, z;
    int id;
};

__constant__ float constants[4] = {1.0f, 2.0f, 4.0f, 8.0f};

__global__ void vectors(const float4* f4, const int2* i2, const double2* d2, const char4* c4, const short2* s2,
                        const uchar2* u2, float* out)
{
    const int i = threadIdx.x;
    float4 a = f4[i];
    int2 b = i2[i];
    double2 c = d2[i];
    char4 d = c4[i];
    short2 e = s2[i];
    uchar2 g = u2[i];
    out[i] = a.x + 2 * a.y + 3 * a.z + 4 * a.w + b.x - b.y + static_cast<float>(c.x * c.y) + d.x + d.y * d.z - d.w +
             e.x * e.y + g.x - g.y;
}

__global__ void particles(const Particle* in, Particle* out, float4* packed)
{
    const int i = threadIdx.x;
    Particle p = in[i];  // one 16-byte load
    p.x += 1.0f;
    p.id *= -1;
    out[blockDim.x - 1 - i] = p;
    packed[i] = make_float4(p.x, p.y, p.z, static_cast<float>(p.id));
}

__global__ void cacheHints(const float* __restrict__ in, const int* __restrict__ ints, float* a, int* b, float* c,
                           double* d, float* e)
{
    const int i = threadIdx.x;
    float v = __ldg(&in[i]) + __ldca(&in[(i + 1) % 64]) + __ldcg(&in[(i + 2) % 64]) + __ldcs(&in[(i + 3) % 64]) +
              __ldlu(&in[(i + 4) % 64]) + __ldcv(&in[(i + 5) % 64]);
    int w = __ldg(&ints[i]) * 3 + __ldcs(&ints[63 - i]);
    double2 dv = __ldg(reinterpret_cast<const double2*>(d) + i % 8);
    float4 fv = __ldcg(reinterpret_cast<const float4*>(in) + i % 16);
    __stwb(&a[i], v);
    __stcg(&b[i], w);
    __stcs(&c[i], fv.x + fv.y + fv.z + fv.w);
    __stwt(&e[i], static_cast<float>(dv.x - dv.y) + in[i] * constants[i % 4]);
}

__global__ void subwordShared(unsigned* out)
{
    __shared__ unsigned char bytes[128];
    __shared__ unsigned short halves[64];
    __shared__ unsigned words[32];
    const int t = threadIdx.x;  // 128 threads
    bytes[t] = static_cast<unsigned char>(t * 7 + 1);
    if (t < 64)
        halves[t] = static_cast<unsigned short>(t * 1000 + 3);
    __syncthreads();
    if (t < 32) {
        words[t] = reinterpret_cast<const unsigned*>(bytes)[t] ^ reinterpret_cast<const unsigned*>(halves)[t];
        out[t] = words[t];
    }
}

// The last warp of a reduction over volatile shared memory, with __syncwarp between steps.
__global__ void volatileReduce(const int* in, int* out)
{
    __shared__ int data[64];
    const int t = threadIdx.x;
    data[t] = in[t] + in[t + 64];
    __syncthreads();
    if (t < 32) {
        volatile int* v = data;
        v[t] = v[t] + v[t + 32];
        __syncwarp();
        for (int offset = 16; offset > 0; offset /= 2) {
            int other = v[t + offset];
            __syncwarp();
            v[t] = v[t] + other;
            __syncwarp();
        }
        if (t == 0)
            *out = v[0];
    }
}

struct Record {
    int key;
    short small[3];
    double value;
};

__global__ void deviceMemcpy(const Record* in, Record* out, unsigned char* raw)
{
    const int t = threadIdx.x;
    Record r;
    memcpy(&r, &in[t], sizeof r);
    r.key += 100;
    r.small[2] = static_cast<short>(r.small[0] - r.small[1]);
    memcpy(&out[t], &r, sizeof r);
    memset(raw + t * 8, t, 8);
}

__global__ void spaces(const float* global, int* out)
{
    __shared__ float tile[32];
    float local[4];
    for (int k = 0; k < 4; ++k)
        local[k] = global[threadIdx.x % 8 + k];
    tile[threadIdx.x] = local[threadIdx.x % 4];
    __syncthreads();
    // Index with a value the compiler cannot see through, so that local[] stays in local memory.
    volatile int pick = threadIdx.x % 4;
    const float* p = (threadIdx.x % 2) ? &local[pick] : &tile[threadIdx.x];
    out[threadIdx.x * 5] =
        __isGlobal(global) + 2 * __isShared(tile) + 4 * __isLocal(local) + 8 * __isConstant(constants);
    out[threadIdx.x * 5 + 1] = __isShared(p) * 10 + __isLocal(p);
    out[threadIdx.x * 5 + 2] =
        static_cast<int>(__cvta_generic_to_shared(&tile[threadIdx.x]) - __cvta_generic_to_shared(&tile[0]));
    out[threadIdx.x * 5 + 3] = static_cast<int>(*p);
    out[threadIdx.x * 5 + 4] = __isGlobal(p) + __isGlobal(out);
}

__global__ void blockVotes(const int* in, int* out)
{
    const int t = threadIdx.x;  // 96 threads
    const int v = in[t];
    int count = __syncthreads_count(v > 0);
    int all = __syncthreads_and(v > -50);
    int any = __syncthreads_or(v == 42);
    int none = __syncthreads_or(v > 1000);
    __threadfence_block();
    __threadfence();
    __threadfence_system();
    __nanosleep(100);
    if (t % 32 < 16) {
        __syncwarp(0x0000ffffu);
    }
    if (t == 0) {
        out[0] = count;
        out[1] = all;
        out[2] = any;
        out[3] = none;
    }
}

template <typename T>
T* toDevice(const T* host, int n)
{
    T* d;
    CHECK(cudaMalloc(&d, n * sizeof(T)));
    CHECK(cudaMemcpy(d, host, n * sizeof(T), cudaMemcpyHostToDevice));
    return d;
}

int main()
{
    float4 f4[32];
    int2 i2[32];
    double2 d2[32];
    char4 c4[32];
    short2 s2[32];
    uchar2 u2[32];
    for (int i = 0; i < 32; ++i) {
        f4[i] = make_float4(i, i * 0.5f, -i, 1.0f);
        i2[i] = make_int2(i * 3, 7 - i);
        d2[i] = make_double2(i * 0.25, 4.0);
        c4[i] = make_char4(static_cast<signed char>(i - 16), 3, static_cast<signed char>(-i), 5);
        s2[i] = make_short2(static_cast<short>(i * 100), -2);
        u2[i] = make_uchar2(static_cast<unsigned char>(200 + i), static_cast<unsigned char>(i));
    }
    float* dout;
    CHECK(cudaMalloc(&dout, 64 * sizeof(float)));
    vectors<<<1, 32>>>(toDevice(f4, 32), toDevice(i2, 32), toDevice(d2, 32), toDevice(c4, 32), toDevice(s2, 32),
                       toDevice(u2, 32), dout);
    CHECK(cudaGetLastError());
    float hout[64];
    CHECK(cudaMemcpy(hout, dout, 32 * sizeof(float), cudaMemcpyDeviceToHost));
    std::printf("vector types: %.2f %.2f %.2f %.2f\n", hout[0], hout[1], hout[17], hout[31]);

    Particle p[32];
    for (int i = 0; i < 32; ++i)
        p[i] = {i * 1.5f, -i * 0.5f, 2.0f, i + 1};
    Particle* dp;
    float4* dpacked;
    CHECK(cudaMalloc(&dp, sizeof p));
    CHECK(cudaMalloc(&dpacked, 32 * sizeof(float4)));
    particles<<<1, 32>>>(toDevice(p, 32), dp, dpacked);
    CHECK(cudaGetLastError());
    float4 packed[32];
    CHECK(cudaMemcpy(p, dp, sizeof p, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(packed, dpacked, sizeof packed, cudaMemcpyDeviceToHost));
    std::printf("particles: %.1f %.1f %.1f %d | packed %.1f %.1f %.1f %.1f\n", p[0].x, p[0].y, p[0].z, p[0].id,
                packed[5].x, packed[5].y, packed[5].z, packed[5].w);

    float in[64];
    int ints[64];
    double dd[16];
    for (int i = 0; i < 64; ++i) {
        in[i] = i * 0.25f - 4.0f;
        ints[i] = i * i - 100;
    }
    for (int i = 0; i < 16; ++i)
        dd[i] = i * 1.5;
    float *a, *c, *e;
    int* b;
    CHECK(cudaMalloc(&a, 64 * sizeof(float)));
    CHECK(cudaMalloc(&b, 64 * sizeof(int)));
    CHECK(cudaMalloc(&c, 64 * sizeof(float)));
    CHECK(cudaMalloc(&e, 64 * sizeof(float)));
    cacheHints<<<1, 64>>>(toDevice(in, 64), toDevice(ints, 64), a, b, c, toDevice(dd, 16), e);
    CHECK(cudaGetLastError());
    float ha[64], hc[64], he[64];
    int hb[64];
    CHECK(cudaMemcpy(ha, a, sizeof ha, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hb, b, sizeof hb, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hc, c, sizeof hc, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(he, e, sizeof he, cudaMemcpyDeviceToHost));
    std::printf("cache hints: %.2f %.2f | %d %d | %.2f %.2f | %.2f %.2f\n", ha[0], ha[63], hb[0], hb[63], hc[0], hc[63],
                he[0], he[63]);

    unsigned* dwords;
    CHECK(cudaMalloc(&dwords, 32 * sizeof(unsigned)));
    subwordShared<<<1, 128>>>(dwords);
    CHECK(cudaGetLastError());
    unsigned words[32];
    CHECK(cudaMemcpy(words, dwords, sizeof words, cudaMemcpyDeviceToHost));
    std::printf("sub-word shared stores: %08x %08x %08x %08x\n", words[0], words[1], words[16], words[31]);

    int vin[128];
    for (int i = 0; i < 128; ++i)
        vin[i] = i * 3 - 50;
    int* dsum;
    CHECK(cudaMalloc(&dsum, sizeof(int)));
    volatileReduce<<<1, 64>>>(toDevice(vin, 128), dsum);
    CHECK(cudaGetLastError());
    int sum;
    CHECK(cudaMemcpy(&sum, dsum, sizeof sum, cudaMemcpyDeviceToHost));
    std::printf("volatile reduction: %d\n", sum);

    Record records[16];
    for (int i = 0; i < 16; ++i)
        records[i] = {i, {static_cast<short>(i * 10), static_cast<short>(i), 0}, i * 0.125};
    Record* drec;
    unsigned char* raw;
    CHECK(cudaMalloc(&drec, sizeof records));
    CHECK(cudaMalloc(&raw, 16 * 8));
    deviceMemcpy<<<1, 16>>>(toDevice(records, 16), drec, raw);
    CHECK(cudaGetLastError());
    unsigned char hraw[16 * 8];
    CHECK(cudaMemcpy(records, drec, sizeof records, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hraw, raw, sizeof hraw, cudaMemcpyDeviceToHost));
    std::printf("device memcpy: %d %d %d %.3f | memset %d %d\n", records[7].key, records[7].small[1],
                records[7].small[2], records[7].value, hraw[8 * 9], hraw[8 * 15 + 7]);

    int* dspaces;
    CHECK(cudaMalloc(&dspaces, 32 * 5 * sizeof(int)));
    spaces<<<1, 32>>>(toDevice(in, 64), dspaces);
    CHECK(cudaGetLastError());
    int hsp[32 * 5];
    CHECK(cudaMemcpy(hsp, dspaces, sizeof hsp, cudaMemcpyDeviceToHost));
    for (int t : {0, 1, 6, 31})
        std::printf("address spaces thread %d: %d %d %d %d %d\n", t, hsp[t * 5], hsp[t * 5 + 1], hsp[t * 5 + 2],
                    hsp[t * 5 + 3], hsp[t * 5 + 4]);

    int bv[96];
    for (int i = 0; i < 96; ++i)
        bv[i] = (i * 37) % 91 - 45;
    int* dvotes;
    CHECK(cudaMalloc(&dvotes, 4 * sizeof(int)));
    blockVotes<<<1, 96>>>(toDevice(bv, 96), dvotes);
    CHECK(cudaGetLastError());
    int votes[4];
    CHECK(cudaMemcpy(votes, dvotes, sizeof votes, cudaMemcpyDeviceToHost));
    std::printf("__syncthreads_count %d, _and %d, _or %d %d\n", votes[0], votes[1], votes[2], votes[3]);
    return 0;
}
