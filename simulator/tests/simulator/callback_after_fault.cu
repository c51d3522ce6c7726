// Simulator-only: work on a stream runs when it is submitted here, so a stream callback added after
// a kernel that faulted runs at once, with the fault's status, and one added once the fault has
// been seen is refused with it. On a GPU the callback runs whenever the stream gets to it (an
// H200 had not run it when cudaStreamAddCallback returned), so its output depends on timing there.
#include <cstdio>

__global__ void outOfBounds(int* data)
{
    data[1 << 28] = 1;
}

struct Seen {
    int calls = 0;
    cudaError_t status = cudaErrorUnknown;
};

void CUDART_CB record(cudaStream_t, cudaError_t status, void* user)
{
    Seen& seen = *static_cast<Seen*>(user);
    ++seen.calls;
    seen.status = status;
}

int main()
{
    int* plain = nullptr;
    cudaMalloc(&plain, 1000 * sizeof(int));
    cudaStream_t stream;
    cudaStreamCreate(&stream);
    outOfBounds<<<1, 1, 0, stream>>>(plain);
    Seen after;
    std::printf("callback after a fault: %s\n", cudaGetErrorName(cudaStreamAddCallback(stream, record, &after, 0)));
    std::printf("the callback ran %d time(s), status %s\n", after.calls, cudaGetErrorName(after.status));
    std::printf("callback once the fault was seen: %s\n",
                cudaGetErrorName(cudaStreamAddCallback(stream, record, &after, 0)));
    std::printf("the callback ran %d time(s)\n", after.calls);
    return 0;
}
