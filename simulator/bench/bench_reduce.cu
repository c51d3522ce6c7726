// Measures the simulator's speed on the neighbored in-place reduction of
// 2^24 ints with 512-thread blocks (divergent, barrier-heavy), on a
// warp-shuffle reduction, on a shared-memory tree reduction (every shared
// access goes through the race check unless CUDASIM_RACECHECK=0) and on a
// histogram of 2^22 values into 256 global bins, one atomicAdd per element
// (atomics-heavy), and prints warp instructions per second per core, counted and uncounted.
// Arguments name the kernels to run (neighbored, shuffle, shared, atomics); none runs all four.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <iterator>
#include <vector>

#include <cudasim/counters.hpp>

__global__ void reduceNeighbored(int* g_idata, int* g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x + threadIdx.x;
    int* idata = g_idata + blockIdx.x * blockDim.x;
    if (idx >= n)
        return;
    for (int stride = 1; stride < blockDim.x; stride *= 2) {
        if ((tid % (2 * stride)) == 0)
            idata[tid] += idata[tid + stride];
        __syncthreads();
    }
    if (tid == 0)
        g_odata[blockIdx.x] = idata[0];
}

__global__ void reduce_shared(const int* in, int* out)
{
    extern __shared__ int cache[];
    const unsigned tid = threadIdx.x;
    cache[tid] = in[blockIdx.x * blockDim.x + tid];
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (tid < stride)
            cache[tid] += cache[tid + stride];
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = cache[0];
}

__global__ void reduce_shuffle(const int* in, int* total, int n)
{
    int sum = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        sum += in[i];
    for (int offset = 16; offset > 0; offset /= 2)
        sum += __shfl_down_sync(0xffffffff, sum, offset);
    if (threadIdx.x % 32 == 0)
        atomicAdd(total, sum);
}

__global__ void histogram(const int* values, unsigned n, unsigned* bins)
{
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&bins[values[i] & 255], 1u);
}

// The fastest of three runs (each after `prepare`), in wall-clock seconds and in CPU seconds of all
// threads: the fastest filters out noise from other processes.
struct Fastest {
    double seconds = 1e30;
    double cpu_seconds = 1e30;
};

template <class Prepare, class Launch>
Fastest fastest_of_three(Prepare prepare, Launch launch)
{
    Fastest fastest;
    for (int run = 0; run < 3; ++run) {
        prepare();
        const auto start = std::chrono::steady_clock::now();
        const std::clock_t cpu_start = std::clock();
        launch();
        cudaDeviceSynchronize();
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        const double cpu_seconds = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
        fastest.seconds = std::min(fastest.seconds, seconds);
        fastest.cpu_seconds = std::min(fastest.cpu_seconds, cpu_seconds);
    }
    return fastest;
}

// Runs a kernel counted (the counters and the timing model follow it, as in a grader's timed runs)
// and uncounted (cudasim::set_counting(false), as in a grader's correctness runs), every check on
// unless the environment turns one off. Per-core speed divides by the CPU time all threads used, so
// it does not depend on how many cores the machine really gives the process.
template <class Prepare, class Launch>
void measure(const char* name, Prepare prepare, Launch launch)
{
    const Fastest counted = fastest_of_three(prepare, launch);
    const auto instructions = static_cast<double>(cudasim::last_launch_counters().counts.warp_instructions);
    cudasim::set_counting(false);
    const Fastest uncounted = fastest_of_three(prepare, launch);
    cudasim::set_counting(true);
    std::printf("%-16s %10.0f warp instructions   counted %6.1f M/s %6.1f M/s per core   uncounted %6.1f M/s "
                "%6.1f M/s per core   (%u threads)\n",
                name, instructions, instructions / counted.seconds / 1e6, instructions / counted.cpu_seconds / 1e6,
                instructions / uncounted.seconds / 1e6, instructions / uncounted.cpu_seconds / 1e6,
                cudasim::simulator_threads());
}

// Whether the command line asks for `kernel`: every kernel when it names none.
bool wanted(int argc, char** argv, const char* kernel)
{
    if (argc < 2)
        return true;
    for (int i = 1; i < argc; ++i)
        if (std::strcmp(argv[i], kernel) == 0)
            return true;
    return false;
}

int main(int argc, char** argv)
{
    const char* const kernels[] = {"neighbored", "shuffle", "shared", "atomics"};
    for (int i = 1; i < argc; ++i)
        if (std::none_of(std::begin(kernels), std::end(kernels),
                         [&](const char* k) { return std::strcmp(argv[i], k) == 0; })) {
            std::fprintf(stderr, "cudasim_bench: unknown kernel '%s' (neighbored, shuffle, shared or atomics)\n",
                         argv[i]);
            return 2;
        }
    const unsigned n = 1u << 24;
    const int block = 512;
    const int grid = n / block;
    std::vector<int> h(n, 1);
    int *d_in, *d_out;
    cudaMalloc(&d_in, n * sizeof(int));
    cudaMalloc(&d_out, grid * sizeof(int));
    auto upload = [&] { cudaMemcpy(d_in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice); };
    auto partial_sum = [&] {
        std::vector<int> partial(grid);
        cudaMemcpy(partial.data(), d_out, grid * sizeof(int), cudaMemcpyDeviceToHost);
        long long sum = 0;
        for (int v : partial)
            sum += v;
        return sum;
    };
    bool right = true;
    if (wanted(argc, argv, "neighbored")) {
        measure("neighbored 2^24", upload, [&] { reduceNeighbored<<<grid, block>>>(d_in, d_out, n); });
        const long long sum = partial_sum();
        std::printf("sum %lld (expected %u)\n", sum, n);
        right = right && sum == n;
    }
    if (wanted(argc, argv, "shuffle")) {
        upload();
        auto clear_total = [&] { cudaMemset(d_out, 0, sizeof(int)); };
        measure("shuffle 2^24", clear_total, [&] { reduce_shuffle<<<1024, 256>>>(d_in, d_out, n); });
        int total = 0;
        cudaMemcpy(&total, d_out, sizeof(int), cudaMemcpyDeviceToHost);
        std::printf("sum %d (expected %u)\n", total, n);
        right = right && total == static_cast<int>(n);
    }
    if (wanted(argc, argv, "shared")) {
        upload();
        measure(
            "shared 2^24", [] {}, [&] { reduce_shared<<<grid, block, block * sizeof(int)>>>(d_in, d_out); });
        const long long sum = partial_sum();
        std::printf("sum %lld (expected %u)\n", sum, n);
        right = right && sum == n;
    }
    if (wanted(argc, argv, "atomics")) {
        // Values 0, 1, 2, ...: every bin of the histogram gets n / 256 of them.
        const unsigned values = 1u << 22;
        for (unsigned i = 0; i < values; ++i)
            h[i] = static_cast<int>(i);
        upload();
        unsigned* d_bins;
        cudaMalloc(&d_bins, 256 * sizeof(unsigned));
        auto clear_bins = [&] { cudaMemset(d_bins, 0, 256 * sizeof(unsigned)); };
        measure("atomics 2^22", clear_bins, [&] { histogram<<<1024, 256>>>(d_in, values, d_bins); });
        std::vector<unsigned> bins(256);
        cudaMemcpy(bins.data(), d_bins, 256 * sizeof(unsigned), cudaMemcpyDeviceToHost);
        const bool even = std::all_of(bins.begin(), bins.end(), [&](unsigned b) { return b == values / 256; });
        std::printf("bins %s (expected %u each)\n", even ? "even" : "uneven", values / 256);
        right = right && even;
    }
    return cudaGetLastError() == cudaSuccess && right ? 0 : 1;
}
