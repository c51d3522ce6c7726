// Integer arithmetic and bit manipulation, 32- and 64-bit, signed and
// unsigned: the results must match the host's.
#include "common.cuh"
#include <cstdint>

constexpr int kOps = 24;

__host__ __device__ long long compute(int op, int a, int b, long long c, unsigned u)
{
    switch (op) {
    case 0:
        return a + b;
    case 1:
        return a - b;
    case 2:
        return a * b;
    case 3:
        return b != 0 ? a / b : 0;
    case 4:
        return b != 0 ? a % b : 0;
    case 5:
        return a < b ? a : b;
    case 6:
        return (u >> (b & 31)) | (u << ((32 - (b & 31)) & 31));
    case 7:
        return a >> (b & 31);
    case 8:
        return (long long)a * b;
    case 9:
        return c * 3 + a;
    case 10:
        return c / (b | 1);
    case 11:
        return c % (b | 1);
    case 12:
        return (a & b) ^ (a | ~b);
    case 13:
        return u / (unsigned)(b | 1);
    case 14:
        return u % (unsigned)(b | 1);
    case 15:
        return (long long)(((unsigned long long)(unsigned)a * u) >> 32);
    case 16:
        return a < 0 ? -a : a;
    case 17:
        return c >> 7;
    case 18:
        return (unsigned long long)c >> 9;
    case 19:
        return (short)a + (signed char)b;
    case 20:
        return (unsigned char)a * (unsigned short)b;
    case 21:
        return a > b ? a : b;
    case 22:
        return (u << 4) + (u >> 28);
    default:
        return c * c;
    }
}

__global__ void run(const int* a, const int* b, const long long* c, long long* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    for (int op = 0; op < kOps; ++op)
        out[i * kOps + op] = compute(op, a[i], b[i], c[i], (unsigned)a[i] * 2654435761u);
}

__global__ void intrinsics(const unsigned* in, unsigned* out)
{
    unsigned x = in[threadIdx.x];
    out[threadIdx.x * 8 + 0] = __popc(x);
    out[threadIdx.x * 8 + 1] = __clz(x);
    out[threadIdx.x * 8 + 2] = __brev(x);
    out[threadIdx.x * 8 + 3] = __ffs(x);
    out[threadIdx.x * 8 + 4] = __byte_perm(x, 0x76543210, 0x5140);
    out[threadIdx.x * 8 + 5] = __umulhi(x, 0x9e3779b9u);
    out[threadIdx.x * 8 + 6] = __popcll((unsigned long long)x << 20 | x);
    out[threadIdx.x * 8 + 7] = (x >> 5) & 0x3ff;  // bit-field extract
}

int main()
{
    const int n = 200;
    int ha[n], hb[n];
    long long hc[n];
    for (int i = 0; i < n; ++i) {
        ha[i] = (int)(i * 2654435761u) >> 3;
        hb[i] = (i % 7 == 0) ? -(i + 1) : (i * 40503) % 65536 - 30000;
        hc[i] = (long long)ha[i] * 1000003LL - i;
    }
    int *da, *db;
    long long *dc, *dout;
    CHECK(cudaMalloc(&da, sizeof ha));
    CHECK(cudaMalloc(&db, sizeof hb));
    CHECK(cudaMalloc(&dc, sizeof hc));
    CHECK(cudaMalloc(&dout, n * kOps * sizeof(long long)));
    CHECK(cudaMemcpy(da, ha, sizeof ha, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, hb, sizeof hb, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dc, hc, sizeof hc, cudaMemcpyHostToDevice));
    run<<<(n + 63) / 64, 64>>>(da, db, dc, dout, n);
    long long* hout = new long long[n * kOps];
    CHECK(cudaMemcpy(hout, dout, n * kOps * sizeof(long long), cudaMemcpyDeviceToHost));
    int mismatches = 0;
    long long checksum = 0;
    for (int i = 0; i < n; ++i)
        for (int op = 0; op < kOps; ++op) {
            long long expected = compute(op, ha[i], hb[i], hc[i], (unsigned)ha[i] * 2654435761u);
            if (hout[i * kOps + op] != expected) {
                if (++mismatches < 5)
                    std::printf("op %d input %d: got %lld expected %lld\n", op, i, hout[i * kOps + op], expected);
            }
            checksum = checksum * 31 + expected;
        }
    std::printf("integer ops: %d mismatches, checksum %lld\n", mismatches, checksum);

    unsigned hx[32], hr[32 * 8];
    for (int i = 0; i < 32; ++i)
        hx[i] = i == 0 ? 0 : 0x80000000u >> (i - 1) | (i * 0x01010101u);
    unsigned *dx, *dr;
    CHECK(cudaMalloc(&dx, sizeof hx));
    CHECK(cudaMalloc(&dr, sizeof hr));
    CHECK(cudaMemcpy(dx, hx, sizeof hx, cudaMemcpyHostToDevice));
    intrinsics<<<1, 32>>>(dx, dr);
    CHECK(cudaMemcpy(hr, dr, sizeof hr, cudaMemcpyDeviceToHost));
    for (int i : {0, 1, 5, 31})
        std::printf("x=%08x popc %u clz %u brev %08x ffs %u perm %08x mulhi %08x popcll %u bfe %u\n", hx[i], hr[i * 8],
                    hr[i * 8 + 1], hr[i * 8 + 2], hr[i * 8 + 3], hr[i * 8 + 4], hr[i * 8 + 5], hr[i * 8 + 6],
                    hr[i * 8 + 7]);
    return 0;
}
