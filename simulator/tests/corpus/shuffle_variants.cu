// Every __shfl*_sync on int, unsigned, long long, unsigned long long, float and double, with widths
// 2, 4, 8, 16 and 32, source lanes and deltas out of range (a lane index is taken modulo the width;
// up/down past the segment's edge return the caller's own value; xor reaches lower segments but not
// higher ones), shuffles by a full half-warp or quarter-warp with a partial mask, __ballot_sync,
// __any_sync and __all_sync with partial masks inside divergent code, and __activemask().
#include <cstdint>
#include <cstring>

#include "common.cuh"

constexpr int kRows = 25;

// Each lane's value is a one-to-one function of the lane, so the host can tell where a result came from.
__host__ __device__ int valueOf(int lane, int)
{
    return lane * 10 - 100;
}
__host__ __device__ unsigned valueOf(int lane, unsigned)
{
    return 0x80000000u | lane * 0x01010101u;
}
__host__ __device__ long long valueOf(int lane, long long)
{
    return (lane - 16) * 0x100000001ll;
}
__host__ __device__ unsigned long long valueOf(int lane, unsigned long long)
{
    return 0xf000000000000000ull + lane * 0x10000000001ull;
}
__host__ __device__ float valueOf(int lane, float)
{
    return lane * 0.5f - 3.25f;
}
__host__ __device__ double valueOf(int lane, double)
{
    return lane * 1e10 + 0.25;
}

template <typename T>
__global__ void shuffles(T* out)
{
    const int lane = threadIdx.x;
    const T v = valueOf(lane, T());
    const unsigned full = 0xffffffffu;
    T* o = out + lane;
    o[0 * 32] = __shfl_sync(full, v, (lane * 7) % 32);
    o[1 * 32] = __shfl_sync(full, v, 37);  // lane 5
    o[2 * 32] = __shfl_sync(full, v, -1);  // lane 31
    o[3 * 32] = __shfl_sync(full, v, 1, 2);
    o[4 * 32] = __shfl_sync(full, v, lane + 1, 4);
    o[5 * 32] = __shfl_sync(full, v, 11, 8);  // lane 3 of each group of 8
    o[6 * 32] = __shfl_sync(full, v, lane * 3, 16);
    o[7 * 32] = __shfl_up_sync(full, v, 1, 2);
    o[8 * 32] = __shfl_up_sync(full, v, 3, 4);
    o[9 * 32] = __shfl_up_sync(full, v, 5, 8);
    o[10 * 32] = __shfl_up_sync(full, v, 4, 16);
    o[11 * 32] = __shfl_up_sync(full, v, 0);
    o[12 * 32] = __shfl_down_sync(full, v, 1, 2);
    o[13 * 32] = __shfl_down_sync(full, v, 2, 4);
    o[14 * 32] = __shfl_down_sync(full, v, 7, 8);
    o[15 * 32] = __shfl_down_sync(full, v, 9, 16);
    o[16 * 32] = __shfl_down_sync(full, v, 31);
    o[17 * 32] = __shfl_xor_sync(full, v, 1, 2);
    o[18 * 32] = __shfl_xor_sync(full, v, 2, 4);
    o[19 * 32] = __shfl_xor_sync(full, v, 8, 8);  // odd groups of 8 read the even group below
    o[20 * 32] = __shfl_xor_sync(full, v, 5, 16);
    o[21 * 32] = __shfl_xor_sync(full, v, 16, 16);  // the upper half reads the lower half
    o[22 * 32] = __shfl_xor_sync(full, v, 31);
    // Partial masks: a full half-warp or quarter-warp takes part.
    T half = v, quarter = v;
    if (lane < 16) {
        half = __shfl_xor_sync(0x0000ffffu, v, 1);
        half = __shfl_down_sync(0x0000ffffu, half, 3, 16);
    } else {
        half = __shfl_sync(0xffff0000u, v, 3, 16);  // lane 19
        half = __shfl_up_sync(0xffff0000u, half, 2, 16);
    }
    if (lane / 8 == 1)
        quarter = __shfl_xor_sync(0x0000ff00u, v, 4, 8);
    o[23 * 32] = half;
    o[24 * 32] = quarter;
}

// Votes: 0..2 converged, 3..7 in divergent branches with partial masks, 8..9 activemask.
__global__ void votes(unsigned* out)
{
    const int lane = threadIdx.x % 32;
    unsigned* o = out + (threadIdx.x / 32) * 10;
    const unsigned active = __activemask();
    if (threadIdx.x >= 32) {
        // The second warp of a 48-thread block has 16 threads.
        unsigned b = __ballot_sync(active, lane % 5 == 0);
        int all = __all_sync(active, true);
        if (lane == 0) {
            o[0] = active;
            o[1] = b;
            o[2] = all;
        }
        return;
    }
    unsigned ballot = __ballot_sync(0xffffffffu, lane % 7 == 3);
    int any = __any_sync(0xffffffffu, lane == 31);
    int all = __all_sync(0xffffffffu, lane != 13);
    if (lane == 0) {
        o[0] = active;
        o[1] = ballot;
        o[2] = any * 10 + all;
    }
    if (lane & 1) {
        unsigned b = __ballot_sync(0xaaaaaaaau, lane % 3 == 0);
        int anyOdd = __any_sync(0xaaaaaaaau, lane == 7);
        int allOdd = __all_sync(0xaaaaaaaau, lane > 0) * 10 + __all_sync(0xaaaaaaaau, lane < 31);
        if (lane == 1) {
            o[3] = b;
            o[4] = anyOdd * 100 + allOdd;
        }
    } else {
        unsigned b = __ballot_sync(0x55555555u, lane < 10);
        int anyEven = __any_sync(0x55555555u, lane == 7);
        if (lane == 0) {
            o[5] = b;
            o[6] = anyEven;
        }
    }
    if (lane < 16) {
        if (lane % 4 == 0) {
            unsigned b = __ballot_sync(0x00001111u, true);
            if (lane == 0)
                o[7] = b;
        }
    }
    if (lane < 10) {
        unsigned mask = __activemask();
        if (lane == 9)
            o[8] = mask;
    }
    if (lane % 4 == 2) {
        unsigned mask = __activemask();
        if (lane == 2)
            o[9] = mask;
    }
}

template <typename T>
int sourceLane(T value)
{
    for (int lane = 0; lane < 32; ++lane) {
        T v = valueOf(lane, T());
        if (std::memcmp(&v, &value, sizeof v) == 0)
            return lane;
    }
    return -1;
}

// Runs the shuffles on T and returns, for each row and lane, the lane the value came from.
template <typename T>
void sources(int (*lanes)[32])
{
    T* d;
    CHECK(cudaMalloc(&d, kRows * 32 * sizeof(T)));
    shuffles<T><<<1, 32>>>(d);
    CHECK(cudaGetLastError());
    T h[kRows * 32];
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d));
    for (int r = 0; r < kRows; ++r)
        for (int lane = 0; lane < 32; ++lane)
            lanes[r][lane] = sourceLane(h[r * 32 + lane]);
}

int main()
{
    const char* rows[kRows] = {"idx lane*7", "idx 37",         "idx -1",    "idx 1 w2",   "idx lane+1 w4",
                               "idx 11 w8",  "idx lane*3 w16", "up 1 w2",   "up 3 w4",    "up 5 w8",
                               "up 4 w16",   "up 0",           "down 1 w2", "down 2 w4",  "down 7 w8",
                               "down 9 w16", "down 31",        "xor 1 w2",  "xor 2 w4",   "xor 8 w8",
                               "xor 5 w16",  "xor 16 w16",     "xor 31",    "half-warps", "quarter-warp"};
    int intLanes[kRows][32];
    sources<int>(intLanes);
    std::printf("source lane of each lane's result (int):\n");
    for (int r = 0; r < kRows; ++r) {
        std::printf("%-14s:", rows[r]);
        for (int lane = 0; lane < 32; ++lane)
            std::printf(" %d", intLanes[r][lane]);
        std::printf("\n");
    }
    int lanes[kRows][32];
    const char* types[] = {"unsigned", "long long", "unsigned long long", "float", "double"};
    for (int t = 0; t < 5; ++t) {
        if (t == 0)
            sources<unsigned>(lanes);
        else if (t == 1)
            sources<long long>(lanes);
        else if (t == 2)
            sources<unsigned long long>(lanes);
        else if (t == 3)
            sources<float>(lanes);
        else
            sources<double>(lanes);
        int differ = 0;
        std::printf("%s: rows that differ from int:", types[t]);
        for (int r = 0; r < kRows; ++r) {
            if (std::memcmp(lanes[r], intLanes[r], sizeof lanes[r]) != 0) {
                std::printf(" %s", rows[r]);
                ++differ;
            }
        }
        std::printf(differ ? "\n" : " none\n");
    }

    unsigned* dv;
    CHECK(cudaMalloc(&dv, 20 * sizeof(unsigned)));
    CHECK(cudaMemset(dv, 0, 20 * sizeof(unsigned)));
    votes<<<1, 48>>>(dv);
    CHECK(cudaGetLastError());
    unsigned hv[20];
    CHECK(cudaMemcpy(hv, dv, sizeof hv, cudaMemcpyDeviceToHost));
    std::printf("warp 0: activemask %08x ballot %08x any*10+all %u\n", hv[0], hv[1], hv[2]);
    std::printf("odd lanes: ballot %08x any*100+all*10+all %u\n", hv[3], hv[4]);
    std::printf("even lanes: ballot %08x any %u\n", hv[5], hv[6]);
    std::printf("lanes 0,4,8,12: ballot %08x\n", hv[7]);
    std::printf("activemask in branches: lane < 10 %08x, lane %% 4 == 2 %08x\n", hv[8], hv[9]);
    std::printf("warp 1 (16 threads): activemask %08x ballot %08x all %u\n", hv[10], hv[11], hv[12]);
    CHECK(cudaFree(dv));
    return 0;
}
