// Cooperative launches: a grid as large as the device holds at once, launched with
// cudaLaunchCooperativeKernel, whose blocks wait for each other with this_grid().sync(): a
// stencil iterated in place across the whole grid (each step reads what other blocks wrote in the
// step before), a sum whose partials block 0 adds after the grid syncs, a grid one block too
// large (refused), and grid.sync() in an ordinary launch of two blocks (the runtime gives every
// launch a grid workspace, and two blocks are resident at once: it works). What is printed does
// not depend on how many blocks the device holds.
#include <cooperative_groups.h>

#include "common.cuh"

namespace cg = cooperative_groups;

constexpr int kThreads = 128;
constexpr int kElements = 40'000;
constexpr int kSteps = 12;

__global__ void stencil_steps(int* a, int* b, long long* partials, long long* sum)
{
    cg::grid_group grid = cg::this_grid();
    const unsigned long long first = grid.thread_rank();
    const unsigned long long stride = grid.size();
    for (unsigned long long i = first; i < kElements; i += stride)
        a[i] = static_cast<int>((i * 7919) % 1009);
    grid.sync();
    for (int step = 0; step < kSteps; ++step) {
        const int* in = step % 2 == 0 ? a : b;
        int* out = step % 2 == 0 ? b : a;
        for (unsigned long long i = first; i < kElements; i += stride) {
            const int left = in[(i + kElements - 1) % kElements];
            const int right = in[(i + 1) % kElements];
            out[i] = (left + 2 * in[i] + right + step) % 100'003;
        }
        grid.sync();  // the next step reads what every block wrote in this one
    }
    __shared__ long long block_sum;
    if (threadIdx.x == 0)
        block_sum = 0;
    __syncthreads();
    long long mine = 0;
    for (unsigned long long i = first; i < kElements; i += stride)
        mine += a[i] * static_cast<long long>(i % 13 + 1);
    atomicAdd(reinterpret_cast<unsigned long long*>(&block_sum), static_cast<unsigned long long>(mine));
    __syncthreads();
    if (threadIdx.x == 0)
        partials[blockIdx.x] = block_sum;
    grid.sync();
    if (grid.block_rank() == 0 && threadIdx.x == 0) {
        long long total = 0;
        for (unsigned b = 0; b < gridDim.x; ++b)
            total += partials[b];
        *sum = total;
    }
}

__global__ void valid_in_ordinary_launch(int* out)
{
    if (blockIdx.x == 0 && threadIdx.x == 0)
        out[0] = cg::this_grid().is_valid() ? 1 : 0;
}

// Each block writes its own elements: the point is the sync, and blocks writing one word would race.
__global__ void sync_in_ordinary_launch(int* out)
{
    cg::this_grid().sync();
    out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}

int main()
{
    int device = 0;
    int cooperative = 0;
    int sms = 0;
    CHECK(cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, device));
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    int per_sm = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, stencil_steps, kThreads, 0));
    std::printf("cooperative launch supported: %d, blocks per SM: %s\n", cooperative, per_sm > 0 ? "some" : "none");

    int *a = nullptr, *b = nullptr, *flag = nullptr;
    long long *partials = nullptr, *sum = nullptr;
    const int blocks = per_sm * sms;
    CHECK(cudaMalloc(&a, kElements * sizeof(int)));
    CHECK(cudaMalloc(&b, kElements * sizeof(int)));
    CHECK(cudaMalloc(&partials, (blocks + 1) * sizeof(long long)));
    CHECK(cudaMalloc(&sum, sizeof(long long)));
    CHECK(cudaMalloc(&flag, kThreads * sizeof(int)));

    // A grid of every resident block, then a small one: the same result.
    for (const int grid : {blocks, 3}) {
        CHECK(cudaMemset(sum, 0, sizeof(long long)));
        void* args[] = {&a, &b, &partials, &sum};
        CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(stencil_steps), dim3(grid), dim3(kThreads),
                                          args, 0, nullptr));
        CHECK(cudaDeviceSynchronize());
        long long host_sum = 0;
        CHECK(cudaMemcpy(&host_sum, sum, sizeof host_sum, cudaMemcpyDeviceToHost));
        std::printf("%s grid: weighted sum after %d steps %lld\n", grid == blocks ? "full" : "3-block", kSteps,
                    host_sum);
    }

    // One block more than the device holds at once.
    const int too_many = blocks + 1;
    void* args[] = {&a, &b, &partials, &sum};
    const cudaError_t refused = cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(stencil_steps),
                                                            dim3(too_many), dim3(kThreads), args, 0, nullptr);
    std::printf("grid of every resident block + 1: %s\n", cudaGetErrorName(refused));
    std::printf("after it: %s\n", cudaGetErrorName(cudaGetLastError()));

    valid_in_ordinary_launch<<<2, 32>>>(flag);
    CHECK(cudaDeviceSynchronize());
    int valid = -1;
    CHECK(cudaMemcpy(&valid, flag, sizeof valid, cudaMemcpyDeviceToHost));
    std::printf("this_grid().is_valid() in an ordinary launch: %d\n", valid);

    sync_in_ordinary_launch<<<2, 32>>>(flag);
    std::printf("grid.sync() in an ordinary launch: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    return 0;
}
