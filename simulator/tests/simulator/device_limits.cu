// Simulator-only: the limits a GPU puts on a kernel's printf and malloc hold here too. The device
// heap (cudaLimitMallocHeapSize, 8 MB by default) returns NULL when a request does not fit and its
// size is fixed once a kernel has run; device printf's FIFO (cudaLimitPrintfFifoSize, 1 MB by
// default) drops what does not fit, so that a printf in every thread of a large grid cannot fill
// the host's memory.
#include <cstdio>

__global__ void allocate(int** out, size_t bytes)
{
    int* p = static_cast<int*>(malloc(bytes));
    if (p)
        p[0] = int(threadIdx.x);
    out[threadIdx.x] = p;
}

__global__ void release(int** blocks)
{
    free(blocks[threadIdx.x]);
}

__global__ void flood()
{
    printf("%05u\n", blockIdx.x * blockDim.x + threadIdx.x);  // 6 bytes a line
}

int main()
{
    size_t heap = 0;
    size_t fifo = 0;
    cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize);
    cudaDeviceGetLimit(&fifo, cudaLimitPrintfFifoSize);
    std::printf("heap %zu bytes, printf FIFO %zu bytes\n", heap, fifo);

    int** pointers;
    cudaMalloc(&pointers, 4 * sizeof(int*));
    int* got[4];
    allocate<<<1, 4>>>(pointers, 1 << 20);
    cudaMemcpy(got, pointers, sizeof got, cudaMemcpyDeviceToHost);
    std::printf("4 x 1 MB: %s %s %s %s\n", got[0] ? "ok" : "NULL", got[1] ? "ok" : "NULL", got[2] ? "ok" : "NULL",
                got[3] ? "ok" : "NULL");
    release<<<1, 4>>>(pointers);
    allocate<<<1, 2>>>(pointers, 5 << 20);  // the first fits in the freed heap, the second does not
    cudaMemcpy(got, pointers, 2 * sizeof(int*), cudaMemcpyDeviceToHost);
    std::printf("2 x 5 MB: %s %s\n", got[0] ? "ok" : "NULL", got[1] ? "ok" : "NULL");
    std::printf("heap size after a kernel ran: %s\n",
                cudaGetErrorName(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 64 << 20)));

    cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 60);  // 10 lines of 6 bytes
    flood<<<1, 256>>>();                              // one block: the lines that fit are the first ten, in order
    std::printf("flood: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    return 0;
}
