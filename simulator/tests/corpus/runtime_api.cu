// Less common runtime calls: managed and pinned memory, cudaLaunchKernel,
// opting in to more dynamic shared memory, device selection, queries.
#include "common.cuh"

__global__ void scale(float* data, float factor)
{
    data[threadIdx.x] *= factor;
}

__global__ void bigShared(int* out)
{
    extern __shared__ int buffer[];
    const int n = 100 * 1024 / sizeof(int);
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        buffer[i] = i;
    __syncthreads();
    if (threadIdx.x == 0)
        out[0] = buffer[n - 1];
}

int main()
{
    float* managed;
    CHECK(cudaMallocManaged(&managed, 32 * sizeof(float)));
    for (int i = 0; i < 32; ++i)
        managed[i] = i;
    scale<<<1, 32>>>(managed, 2.0f);
    CHECK(cudaDeviceSynchronize());
    std::printf("managed: %.1f %.1f\n", managed[1], managed[31]);

    float *pinned, *mapped, *device;
    CHECK(cudaMallocHost(&pinned, 32 * sizeof(float)));
    CHECK(cudaHostAlloc(&mapped, 32 * sizeof(float), cudaHostAllocDefault));
    CHECK(cudaMalloc(&device, 32 * sizeof(float)));
    for (int i = 0; i < 32; ++i)
        pinned[i] = 1.0f + i;
    cudaStream_t stream;
    CHECK(cudaStreamCreateWithPriority(&stream, cudaStreamNonBlocking, 0));
    CHECK(cudaMemcpyAsync(device, pinned, 32 * sizeof(float), cudaMemcpyHostToDevice, stream));
    float factor = 3.0f;
    void* args[] = {&device, &factor};
    CHECK(cudaLaunchKernel(reinterpret_cast<const void*>(scale), dim3(1), dim3(32), args, 0, stream));
    CHECK(cudaMemcpyAsync(mapped, device, 32 * sizeof(float), cudaMemcpyDeviceToHost, stream));
    CHECK(cudaStreamSynchronize(stream));
    std::printf("cudaLaunchKernel: %.1f %.1f, stream query %s\n", mapped[0], mapped[31],
                cudaGetErrorName(cudaStreamQuery(stream)));

    int* out;
    CHECK(cudaMalloc(&out, sizeof(int)));
    bigShared<<<1, 256, 100 * 1024>>>(out);
    std::printf("100 KB dynamic shared without opting in: %s\n", cudaGetErrorName(cudaGetLastError()));
    CHECK(cudaFuncSetAttribute(bigShared, cudaFuncAttributeMaxDynamicSharedMemorySize, 100 * 1024));
    bigShared<<<1, 256, 100 * 1024>>>(out);
    CHECK(cudaGetLastError());
    int last;
    CHECK(cudaMemcpy(&last, out, sizeof(int), cudaMemcpyDeviceToHost));
    std::printf("after opting in: last element %d\n", last);

    int count, device_id, version;
    CHECK(cudaGetDeviceCount(&count));
    CHECK(cudaSetDevice(0));
    CHECK(cudaGetDevice(&device_id));
    std::printf("device %d, cudaSetDevice(count): %s\n", device_id, cudaGetErrorName(cudaSetDevice(count)));
    CHECK(cudaRuntimeGetVersion(&version));
    std::printf("runtime version at least 12.0: %d\n", version >= 12000);
    CHECK(cudaDeviceSetCacheConfig(cudaFuncCachePreferShared));
    CHECK(cudaFuncSetCacheConfig(scale, cudaFuncCachePreferL1));
    cudaEvent_t done;
    CHECK(cudaEventCreate(&done));
    CHECK(cudaEventRecord(done, stream));
    CHECK(cudaEventSynchronize(done));
    std::printf("event query: %s\n", cudaGetErrorName(cudaEventQuery(done)));
    CHECK(cudaEventDestroy(done));
    CHECK(cudaStreamDestroy(stream));
    CHECK(cudaFreeHost(pinned));
    CHECK(cudaFreeHost(mapped));
    free_device(managed, device, out);
    return 0;
}
