// Device printf with many conversions, flags, widths and precisions (%d %i %u %o %x %X %c %s %f %F
// %e %E %g %G %a %% with h, l and ll lengths; left/zero padding, +, space and # flags;
// infinities), its return value, printing from several threads in a fixed order (one thread at a
// time between __syncthreads()), and a kernel whose device-side assert holds (it prints nothing).
#undef NDEBUG  // keep assert() in release builds
#include <cassert>
#include <climits>

#include "common.cuh"

__global__ void formats(const char* word, int* returned)
{
    if (threadIdx.x != 0 || blockIdx.x != 0)
        return;
    const int i = -42;
    const unsigned u = 3000000000u;
    const long long ll = -9007199254740993ll;
    const unsigned long long ull = 18446744073709551615ull;
    const float f = 3.14159274f;
    const double d = -0.000123456789;
    printf("ints: [%d] [%i] [%u] [%o] [%x] [%X] [%5d] [%-5d] [%05d] [%+d] [% d]\n", i, i, u, 8u, 0xbeefu, 0xbeefu, 42,
           42, 42, 42, 42);
    printf("longs: [%ld] [%lu] [%lld] [%llu] [%llx] [%#llx] [%#o]\n", -1234567890123l, 1234567890123ul, ll, ull,
           0xfedcba9876543210ull, 255ull, 8u);
    // Not %hhd or %hhu: an H100 prints neither -5 nor 250 for them.
    printf("short lengths: [%hd] [%hu]\n", static_cast<short>(-300), static_cast<unsigned short>(65000));
    printf("limits: [%d] [%d] [%lld] [%u]\n", INT_MIN, INT_MAX, LLONG_MIN, UINT_MAX);
    printf("floats: [%f] [%.2f] [%10.4f] [%-10.1f] [%e] [%.3E] [%g] [%G] [%g]\n", f, f, d, f, d, 12345.678, 0.0001,
           1e-10, 100000.0);
    printf("more floats: [%F] [%+.1f] [%08.3f] [%.0f] [%.0f] [%#.0f] [%g]\n", 2.5, 2.25, -3.14159, 2.5, 3.5, 2.0,
           1.0 / 3.0);
    const double inf = __longlong_as_double(0x7ff0000000000000ll);
    printf("specials: [%f] [%f] [%e] [%5.1f] [%g]\n", inf, -inf, 0.0, -0.0, -inf);
    printf("hex floats: [%a] [%a]\n", 1.0, -0.1);
    printf("chars and strings: [%c] [%c%c] [%s] [%10s] [%-10s] [%.3s] [%%]\n", 'x', 'O', 'K', word, "right", "left",
           word);
    printf("no arguments\n");
    returned[0] = printf("two: %d %d\n", 1, 2);
    returned[1] = printf("none\n");
    returned[2] = printf("%s=%f %c\n", "pi", 3.14, '!');
}

// Every thread prints, one at a time: a barrier separates the turns.
__global__ void inTurn(const int* values)
{
    __shared__ int running;
    if (threadIdx.x == 0)
        running = 0;
    __syncthreads();
    for (int turn = 0; turn < blockDim.x; ++turn) {
        if (threadIdx.x == turn) {
            running += values[threadIdx.x];
            printf("thread %2u (warp %u, lane %2u): value %4d, running %5d\n", threadIdx.x, threadIdx.x / 32,
                   threadIdx.x % 32, values[threadIdx.x], running);
        }
        __syncthreads();
    }
}

__global__ void checked(const int* values, int* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        assert(values[i] >= -100 && values[i] <= 100);
        out[i] = values[i] * 2;
    }
}

int main()
{
    const char text[] = "device";
    char* word;
    int* returned;
    CHECK(cudaMalloc(&word, sizeof text));
    CHECK(cudaMalloc(&returned, 3 * sizeof(int)));
    CHECK(cudaMemcpy(word, text, sizeof text, cudaMemcpyHostToDevice));
    formats<<<2, 32>>>(word, returned);
    CHECK(cudaDeviceSynchronize());
    int r[3];
    CHECK(cudaMemcpy(r, returned, sizeof r, cudaMemcpyDeviceToHost));
    std::printf("printf returned %d %d %d\n", r[0], r[1], r[2]);
    std::fflush(stdout);

    const int n = 40;
    int h[n];
    for (int i = 0; i < n; ++i)
        h[i] = (i * 73) % 199 - 99;
    int *values, *out;
    CHECK(cudaMalloc(&values, sizeof h));
    CHECK(cudaMalloc(&out, sizeof h));
    CHECK(cudaMemcpy(values, h, sizeof h, cudaMemcpyHostToDevice));
    inTurn<<<1, n>>>(values);
    CHECK(cudaDeviceSynchronize());

    checked<<<2, 32>>>(values, out, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
    std::printf("assert held: out[0] %d out[39] %d\n", h[0], h[39]);
    free_device(word, returned, values, out);
    return 0;
}
