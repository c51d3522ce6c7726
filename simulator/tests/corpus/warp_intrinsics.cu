// shfl (up/down/xor/idx, with widths), vote (all/any/ballot),
// __activemask and __match_any_sync.
#include "common.cuh"

__global__ void shuffles(int* out)
{
    int lane = threadIdx.x;
    int v = lane * 10;
    out[0 * 32 + lane] = __shfl_up_sync(0xffffffff, v, 3);
    out[1 * 32 + lane] = __shfl_down_sync(0xffffffff, v, 5);
    out[2 * 32 + lane] = __shfl_xor_sync(0xffffffff, v, 1);
    out[3 * 32 + lane] = __shfl_sync(0xffffffff, v, 7);
    out[4 * 32 + lane] = __shfl_sync(0xffffffff, v, lane + 1, 8);  // within groups of 8
    out[5 * 32 + lane] = __shfl_down_sync(0xffffffff, v, 2, 16);   // within halves
    out[6 * 32 + lane] = __shfl_xor_sync(0xffffffff, v, 16);
}

__global__ void votes(unsigned* out)
{
    int lane = threadIdx.x;
    out[0] = __ballot_sync(0xffffffff, lane % 3 == 0);
    out[1] = __all_sync(0xffffffff, lane < 32);
    out[2] = __all_sync(0xffffffff, lane < 31);
    out[3] = __any_sync(0xffffffff, lane == 17);
    out[4] = __any_sync(0xffffffff, lane == 99);
    if (lane % 4 == 1)
        out[5] = __activemask();
    out[6 + lane] = __match_any_sync(0xffffffff, lane / 8);
}

int main()
{
    int* d;
    CHECK(cudaMalloc(&d, 7 * 32 * sizeof(int)));
    shuffles<<<1, 32>>>(d);
    int h[7 * 32];
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    const char* names[] = {"up 3", "down 5", "xor 1", "idx 7", "idx lane+1 w8", "down 2 w16", "xor 16"};
    for (int r = 0; r < 7; ++r) {
        std::printf("%-14s:", names[r]);
        for (int l = 0; l < 32; l += 3)
            std::printf(" %d", h[r * 32 + l]);
        std::printf("\n");
    }
    unsigned* dv;
    CHECK(cudaMalloc(&dv, 38 * sizeof(unsigned)));
    votes<<<1, 32>>>(dv);
    unsigned hv[38];
    CHECK(cudaMemcpy(hv, dv, sizeof hv, cudaMemcpyDeviceToHost));
    std::printf("ballot %08x all %u %u any %u %u activemask %08x\n", hv[0], hv[1], hv[2], hv[3], hv[4], hv[5]);
    std::printf("match: %08x %08x %08x %08x\n", hv[6], hv[6 + 9], hv[6 + 18], hv[6 + 31]);
    return 0;
}
