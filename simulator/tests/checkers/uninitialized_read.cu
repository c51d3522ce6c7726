// Planted initcheck errors: a sum that reads one element more than the host copied, and a kernel
// that reads its output buffer before anything wrote it (accumulating into memory cudaMalloc left
// as it was, which a GPU often hands out as zeros). Then the same data written first: by a
// kernel, and by cudaMemset.
#include "common.cuh"

constexpr int kCount = 256;

__global__ void sumAll(const int* data, int count, int* sum)
{
    int total = 0;
    for (int i = threadIdx.x; i < count; i += blockDim.x)
        total += data[i];
    atomicAdd(sum, total);
}

__global__ void fill(int* data, int count)
{
    for (int i = threadIdx.x; i < count; i += blockDim.x)
        data[i] = i;
}

__global__ void accumulate(const int* data, int* out)
{
    out[threadIdx.x] += data[threadIdx.x];
}

int main()
{
    int host[kCount];
    for (int i = 0; i < kCount; ++i)
        host[i] = i;
    int *data, *sum, *out;
    cudaMalloc(&data, kCount * sizeof(int));
    cudaMalloc(&sum, sizeof(int));
    cudaMalloc(&out, kCount * sizeof(int));
    cudaMemset(sum, 0, sizeof(int));
    cudaMemcpy(data, host, (kCount - 1) * sizeof(int), cudaMemcpyHostToDevice);
    sumAll<<<1, 64>>>(data, kCount, sum);
    report("one element past what the host copied", cudaDeviceSynchronize());
    cudaDeviceReset();

    cudaMalloc(&data, kCount * sizeof(int));
    cudaMalloc(&out, kCount * sizeof(int));
    fill<<<1, 64>>>(data, kCount);
    accumulate<<<1, kCount>>>(data, out);
    report("adding into an output nothing wrote", cudaDeviceSynchronize());
    cudaDeviceReset();

    cudaMalloc(&data, kCount * sizeof(int));
    cudaMalloc(&out, kCount * sizeof(int));
    fill<<<1, 64>>>(data, kCount);
    cudaMemset(out, 0, kCount * sizeof(int));
    accumulate<<<1, kCount>>>(data, out);
    int got[kCount];
    cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost);
    report("the output cleared first", cudaDeviceSynchronize());
    std::printf("out[255] = %d\n", got[kCount - 1]);
    return 0;
}
