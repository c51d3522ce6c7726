// Managed memory: __managed__ variables that host and kernels both read and write, memory from
// cudaMallocManaged, its hints (cudaMemAdvise, cudaMemPrefetchAsync) with good and bad arguments,
// and a stream callback (cudaStreamAddCallback) that runs after the stream's work, seeing what its
// kernel wrote, with the stream's status.
#include <cstdio>

__managed__ int counter;
__managed__ int table[4] = {1, 2, 3, 4};

__global__ void bump()
{
    atomicAdd(&counter, 1);
    atomicAdd(&table[threadIdx.x % 4], 10);
}

__global__ void addOne(int* data, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        data[i] += 1;
}

struct Seen {
    const int* data;
    int calls = 0;
    int first = -1;
    cudaError_t status = cudaErrorUnknown;
};

void CUDART_CB record(cudaStream_t, cudaError_t status, void* user)
{
    Seen& seen = *static_cast<Seen*>(user);
    ++seen.calls;
    seen.first = seen.data[0];
    seen.status = status;
}

int main()
{
    counter = 5;
    bump<<<2, 32>>>();
    cudaDeviceSynchronize();
    std::printf("__managed__ counter after 64 increments from 5: %d; table: %d %d %d %d\n", counter, table[0], table[1],
                table[2], table[3]);

    constexpr int n = 1000;
    int* managed = nullptr;
    cudaMallocManaged(&managed, n * sizeof(int));
    for (int i = 0; i < n; ++i)
        managed[i] = i;
    int* plain = nullptr;
    cudaMalloc(&plain, n * sizeof(int));
    const cudaMemLocation device{cudaMemLocationTypeDevice, 0};
    const cudaMemLocation host{cudaMemLocationTypeHost, 0};
    const cudaMemLocation elsewhere{cudaMemLocationTypeDevice, 3};
    const auto name = [](cudaError_t e) { return cudaGetErrorName(e); };

    std::printf("advise read-mostly: %s\n",
                name(cudaMemAdvise(managed, n * sizeof(int), cudaMemAdviseSetReadMostly, device)));
    std::printf("advise preferred host: %s\n",
                name(cudaMemAdvise(managed + 10, 40, cudaMemAdviseSetPreferredLocation, host)));
    std::printf("advise accessed by device 3: %s\n",
                name(cudaMemAdvise(managed, 4, cudaMemAdviseSetAccessedBy, elsewhere)));
    std::printf("advise on cudaMalloc memory: %s\n", name(cudaMemAdvise(plain, 4, cudaMemAdviseSetReadMostly, device)));
    std::printf("advise past the end: %s\n",
                name(cudaMemAdvise(managed, (n + 1) * sizeof(int), cudaMemAdviseSetReadMostly, device)));
    std::printf("advise of no bytes: %s\n", name(cudaMemAdvise(managed, 0, cudaMemAdviseSetReadMostly, device)));
    std::printf("advise on a __managed__ variable: %s\n",
                name(cudaMemAdvise(&counter, sizeof counter, cudaMemAdviseSetReadMostly, device)));

    cudaStream_t stream;
    cudaStreamCreate(&stream);
    std::printf("prefetch to the device: %s\n",
                name(cudaMemPrefetchAsync(managed, n * sizeof(int), device, 0, stream)));
    std::printf("prefetch with flags: %s\n", name(cudaMemPrefetchAsync(managed, n * sizeof(int), device, 1, stream)));
    std::printf("prefetch of cudaMalloc memory: %s\n", name(cudaMemPrefetchAsync(plain, 4, device, 0, stream)));
    std::printf("prefetch to device 3: %s\n", name(cudaMemPrefetchAsync(managed, 4, elsewhere, 0, stream)));

    Seen seen{managed};
    addOne<<<(n + 255) / 256, 256, 0, stream>>>(managed, n);
    std::printf("callback: %s\n", name(cudaStreamAddCallback(stream, record, &seen, 0)));
    cudaStreamSynchronize(stream);
    std::printf("the callback ran %d time(s), saw data[0] = %d, status %s\n", seen.calls, seen.first,
                name(seen.status));
    std::printf("prefetch to the host: %s\n", name(cudaMemPrefetchAsync(managed, n * sizeof(int), host, 0, stream)));
    long long sum = 0;
    for (int i = 0; i < n; ++i)
        sum += managed[i];
    std::printf("sum on the host after the kernel: %lld\n", sum);
    std::printf("callback with flags: %s\n", name(cudaStreamAddCallback(stream, record, &seen, 1)));
    std::printf("no callback: %s\n", name(cudaStreamAddCallback(stream, nullptr, &seen, 0)));
    return 0;
}
