// Warp reductions (__reduce_add/min/max_sync on unsigned and int, __reduce_and/or/xor_sync) and
// __match_any_sync / __match_all_sync (with its predicate) on 32- and 64-bit integers and on
// floats, whose bit patterns are compared (0.0f and -0.0f differ), with the full mask and with
// partial masks inside branches. sm_80 or later.
#include "common.cuh"

constexpr int kCases = 4;  // full warp, lanes 0..19, even lanes, lanes 8..23
constexpr int kReductions = 9;

__device__ void reduceAll(unsigned mask, int lane, unsigned* out)
{
    const unsigned u = lane * lane * 2654435761u + 3;
    const int s = lane * 7 - 100;
    out[0] = __reduce_add_sync(mask, u);
    out[1] = __reduce_min_sync(mask, u);
    out[2] = __reduce_max_sync(mask, u);
    out[3] = static_cast<unsigned>(__reduce_add_sync(mask, s));
    out[4] = static_cast<unsigned>(__reduce_min_sync(mask, s));
    out[5] = static_cast<unsigned>(__reduce_max_sync(mask, s));
    out[6] = __reduce_and_sync(mask, ~(1u << lane) | 0x80000000u);
    out[7] = __reduce_or_sync(mask, 1u << ((lane * 5) % 32));
    out[8] = __reduce_xor_sync(mask, u);
}

// One row of kReductions per lane and case; lanes outside a case's mask leave theirs untouched.
__global__ void reductions(unsigned* out)
{
    const int lane = threadIdx.x;
    unsigned* row = out + lane * kReductions;
    reduceAll(0xffffffffu, lane, row);
    if (lane < 20)
        reduceAll(0x000fffffu, lane, row + 32 * kReductions);
    if (lane % 2 == 0)
        reduceAll(0x55555555u, lane, row + 2 * 32 * kReductions);
    if (lane >= 8 && lane < 24)
        reduceAll(0x00ffff00u, lane, row + 3 * 32 * kReductions);
}

constexpr int kMatches = 12;

__global__ void matches(unsigned* out)
{
    const int lane = threadIdx.x;
    unsigned* row = out + lane * kMatches;
    int pred = -1;
    row[0] = __match_any_sync(0xffffffffu, lane / 8);
    row[1] = __match_any_sync(0xffffffffu, static_cast<unsigned>(lane % 3));
    // Equal low halves, different high halves.
    row[2] = __match_any_sync(0xffffffffu, static_cast<long long>(lane % 2) << 40 | 7);
    row[3] = __match_any_sync(0xffffffffu, static_cast<unsigned long long>(lane / 16) * 0x100000001ull);
    const float f = lane % 4 == 0 ? 0.0f : lane % 4 == 1 ? -0.0f : lane % 4 == 2 ? 1.5f : 0.0f;
    row[4] = __match_any_sync(0xffffffffu, f);
    row[5] = __match_any_sync(0xffffffffu, static_cast<double>(lane % 5 == 0 ? -1.0 : 2.0));
    row[6] = __match_all_sync(0xffffffffu, 42, &pred);
    row[7] = static_cast<unsigned>(pred);
    row[8] = __match_all_sync(0xffffffffu, lane == 31 ? 1 : 0, &pred);
    row[9] = static_cast<unsigned>(pred);
    if (lane >= 4 && lane < 12) {
        row[10] = __match_all_sync(0x00000ff0u, 5ll, &pred) | static_cast<unsigned>(pred) << 31;
        row[11] = __match_any_sync(0x00000ff0u, lane & 2);
    } else if (lane % 2 == 1) {
        // Odd lanes outside 4..11: every other lane 13 and up has the same value.
        row[10] = __match_all_sync(0xaaaaa00au, lane >= 13 ? 9u : 1u, &pred) | static_cast<unsigned>(pred) << 31;
        row[11] = __match_any_sync(0xaaaaa00au, lane >= 13 ? 9u : 1u);
    } else {
        row[10] = 0xdeadu;
        row[11] = 0xdeadu;
    }
}

int main()
{
    unsigned* d;
    CHECK(cudaMalloc(&d, kCases * 32 * kReductions * sizeof(unsigned)));
    CHECK(cudaMemset(d, 0, kCases * 32 * kReductions * sizeof(unsigned)));
    reductions<<<1, 32>>>(d);
    CHECK(cudaGetLastError());
    unsigned h[kCases * 32 * kReductions];
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    const char* cases[kCases] = {"full", "lanes 0-19", "even lanes", "lanes 8-23"};
    const unsigned masks[kCases] = {0xffffffffu, 0x000fffffu, 0x55555555u, 0x00ffff00u};
    const char* names[kReductions] = {"add u", "min u", "max u", "add s", "min s", "max s", "and", "or", "xor"};
    for (int c = 0; c < kCases; ++c) {
        // Every lane of the mask must have the same result: print the first lane's, and a flag.
        int first = __builtin_ctz(masks[c]);
        std::printf("%s:", cases[c]);
        for (int r = 0; r < kReductions; ++r) {
            unsigned value = h[(c * 32 + first) * kReductions + r];
            bool uniform = true;
            for (int lane = 0; lane < 32; ++lane)
                if (masks[c] >> lane & 1)
                    uniform = uniform && h[(c * 32 + lane) * kReductions + r] == value;
            if (r >= 3 && r <= 5)
                std::printf(" %s %d%s", names[r], static_cast<int>(value), uniform ? "" : "(!)");
            else
                std::printf(" %s %08x%s", names[r], value, uniform ? "" : "(!)");
        }
        std::printf("\n");
    }

    unsigned* dm;
    CHECK(cudaMalloc(&dm, 32 * kMatches * sizeof(unsigned)));
    matches<<<1, 32>>>(dm);
    CHECK(cudaGetLastError());
    unsigned hm[32 * kMatches];
    CHECK(cudaMemcpy(hm, dm, sizeof hm, cudaMemcpyDeviceToHost));
    const char* matchNames[kMatches] = {"any int lane/8", "any unsigned lane%3", "any long long",    "any ull",
                                        "any float +-0",  "any double",          "all same",         "all same pred",
                                        "all differ",     "all differ pred",     "partial all|pred", "partial any"};
    for (int m = 0; m < kMatches; ++m) {
        std::printf("%-19s:", matchNames[m]);
        for (int lane = 0; lane < 32; lane += (m >= 10 ? 1 : 3))
            std::printf(" %x", hm[lane * kMatches + m]);
        std::printf("\n");
    }
    free_device(d, dm);
    return 0;
}
