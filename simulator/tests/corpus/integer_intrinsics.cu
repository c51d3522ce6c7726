// Integer intrinsics on edge-case operands: high halves of products (__umulhi, __mulhi, __umul64hi,
// __mul64hi), 24-bit multiplies, bit reversal, population count, leading zeros, first set bit,
// __fns, __byte_perm with several selectors (sign replication included), funnel shifts (wrap and
// clamp), sums of absolute differences, averages (__hadd, __rhadd, __uhadd, __urhadd), dot products
// (__dp4a, __dp2a_lo, __dp2a_hi), SIMD video intrinsics on bytes and half-words, the sm_90 DPX
// functions (__vimax3_s32, __viaddmax_s32, __vibmax_s32) and 64-bit min/max/abs.
#include <climits>
#include <cstdlib>

#include "common.cuh"

constexpr int kInputs = 8;
constexpr int kOps = 59;

__global__ void intrinsics(const unsigned* a32, const unsigned* b32, const unsigned* c32, unsigned long long* out)
{
    const int i = threadIdx.x;
    if (i >= kInputs)
        return;
    const unsigned a = a32[i], b = b32[i], c = c32[i];
    const int sa = static_cast<int>(a), sb = static_cast<int>(b), sc = static_cast<int>(c);
    const unsigned long long A = static_cast<unsigned long long>(a) << 32 | b;
    const unsigned long long B = static_cast<unsigned long long>(b) << 32 | (a ^ c);
    const long long SA = static_cast<long long>(A), SB = static_cast<long long>(B);
    bool pred = false;
    const unsigned long long r[kOps] = {
        __umulhi(a, b),
        static_cast<unsigned>(__mulhi(sa, sb)),
        __umul64hi(A, B),
        static_cast<unsigned long long>(__mul64hi(SA, SB)),
        static_cast<unsigned>(__mul24(sa, sb)),
        __umul24(a, b),
        __brev(a),
        __brevll(A),
        static_cast<unsigned>(__popc(a)),
        static_cast<unsigned>(__popcll(A)),
        static_cast<unsigned>(__clz(sa)),
        static_cast<unsigned>(__clzll(SA)),
        static_cast<unsigned>(__ffs(sa)),
        static_cast<unsigned>(__ffsll(SA)),
        __fns(a, c % 32, 1),
        __fns(a, c % 32, -2),
        __fns(b, 31, 3),
        __byte_perm(a, b, 0x3210),
        __byte_perm(a, b, 0x7531),
        __byte_perm(a, b, 0x0123),
        __byte_perm(a, b, 0x5140),
        __byte_perm(a, b, c),
        __byte_perm(a, b, 0x89ab),  // selector bit 3 replicates the sign of the byte
        __funnelshift_l(b, a, c),
        __funnelshift_r(b, a, c),
        __funnelshift_lc(b, a, c),
        __funnelshift_rc(b, a, c),
        __sad(sa, sb, c),
        __usad(a, b, c),
        static_cast<unsigned>(__hadd(sa, sb)),
        static_cast<unsigned>(__rhadd(sa, sb)),
        __uhadd(a, b),
        __urhadd(a, b),
        static_cast<unsigned>(__dp4a(sa, sb, sc)),
        __dp4a(a, b, c),
        static_cast<unsigned>(__dp2a_lo(sa, sb, sc)),
        static_cast<unsigned>(__dp2a_hi(sa, sb, sc)),
        __dp2a_lo(a, b, c),
        __dp2a_hi(a, b, c),
        __vadd4(a, b),
        __vsub2(a, b),
        __vmaxu4(a, b),
        __vmins2(a, b),
        __vabsdiffu4(a, b),
        __vavgu4(a, b),
        __vcmpeq4(a, b),
        __vsads2(a, b),
        __vabsss4(a),
        __vhaddu2(a, b),
        __vsetgtu4(a, b),
        __vneg4(a),
        __vseteq2(a, b),
        static_cast<unsigned>(__vimax3_s32(sa, sb, sc)),
        static_cast<unsigned>(__viaddmax_s32(sa, sb, sc)),
        static_cast<unsigned>(__vibmax_s32(sa, sb, &pred)) | static_cast<unsigned long long>(pred) << 32,
        static_cast<unsigned long long>(min(SA, SB)),
        max(A, B),
        static_cast<unsigned long long>(llabs(SA)),
        static_cast<unsigned>(abs(sa)),
    };
    for (int k = 0; k < kOps; ++k)
        out[i * kOps + k] = r[k];
}

int main()
{
    const unsigned a[kInputs] = {0, 1, 0x80000000u, 0xffffffffu, 0x12345678u, 0x7fffffffu, 0xdeadbeefu, 0x00f0f0f0u};
    const unsigned b[kInputs] = {0xffffffffu, 0x7fffffffu, 0x80000000u, 0xffffffffu, 0x9abcdef0u, 1, 0x0badf00du, 3};
    const unsigned c[kInputs] = {0, 1, 31, 32, 33, 5, 0x4567u, 64};
    unsigned *da, *db, *dc;
    unsigned long long* dout;
    CHECK(cudaMalloc(&da, sizeof a));
    CHECK(cudaMalloc(&db, sizeof b));
    CHECK(cudaMalloc(&dc, sizeof c));
    CHECK(cudaMalloc(&dout, kInputs * kOps * sizeof(unsigned long long)));
    CHECK(cudaMemcpy(da, a, sizeof a, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, b, sizeof b, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dc, c, sizeof c, cudaMemcpyHostToDevice));
    intrinsics<<<1, 32>>>(da, db, dc, dout);
    CHECK(cudaGetLastError());
    unsigned long long out[kInputs * kOps];
    CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    const char* names[kOps] = {
        "umulhi",    "mulhi",     "umul64hi",  "mul64hi",    "mul24",      "umul24",       "brev",       "brevll",
        "popc",      "popcll",    "clz",       "clzll",      "ffs",        "ffsll",        "fns +1",     "fns -2",
        "fns 31 +3", "perm 3210", "perm 7531", "perm 0123",  "perm 5140",  "perm c",       "perm 89ab",  "funnel l",
        "funnel r",  "funnel lc", "funnel rc", "sad",        "usad",       "hadd",         "rhadd",      "uhadd",
        "urhadd",    "dp4a s",    "dp4a u",    "dp2a_lo s",  "dp2a_hi s",  "dp2a_lo u",    "dp2a_hi u",  "vadd4",
        "vsub2",     "vmaxu4",    "vmins2",    "vabsdiffu4", "vavgu4",     "vcmpeq4",      "vsads2",     "vabsss4",
        "vhaddu2",   "vsetgtu4",  "vneg4",     "vseteq2",    "vimax3_s32", "viaddmax_s32", "vibmax_s32", "min ll",
        "max ull",   "llabs",     "abs",
    };
    std::printf("%-12s", "a");
    for (unsigned v : a)
        std::printf(" %08x", v);
    std::printf("\n%-12s", "b");
    for (unsigned v : b)
        std::printf(" %08x", v);
    std::printf("\n%-12s", "c");
    for (unsigned v : c)
        std::printf(" %08x", v);
    std::printf("\n");
    for (int k = 0; k < kOps; ++k) {
        std::printf("%-12s", names[k]);
        for (int i = 0; i < kInputs; ++i)
            std::printf(" %llx", out[i * kOps + k]);
        std::printf("\n");
    }
    free_device(da, db, dc, dout);
    return 0;
}
