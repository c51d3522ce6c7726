// Stream capture and CUDA graphs: work submitted to a capturing stream is
// recorded, not run; the instantiated graph replays it with the arguments
// it had at capture; waiting for a capturing stream invalidates the capture.
#include <vector>

#include "common.cuh"

__global__ void addOne(int* data, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        data[i] += 1;
}

// Reads what addOne wrote.
__global__ void scaleInto(const int* in, int* out, int factor, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i] * factor + i;
}

const char* statusName(cudaStreamCaptureStatus status)
{
    switch (status) {
    case cudaStreamCaptureStatusNone:
        return "none";
    case cudaStreamCaptureStatusActive:
        return "active";
    case cudaStreamCaptureStatusInvalidated:
        return "invalidated";
    }
    return "?";
}

void printStatus(const char* when, cudaStream_t stream)
{
    cudaStreamCaptureStatus status;
    CHECK(cudaStreamIsCapturing(stream, &status));
    std::printf("%s: %s\n", when, statusName(status));
}

// Prints b's first and last element and the sum of all.
void printResult(const char* when, const int* b, int n)
{
    std::vector<int> h(n);
    CHECK(cudaMemcpy(h.data(), b, n * sizeof(int), cudaMemcpyDeviceToHost));
    long long sum = 0;
    for (int v : h)
        sum += v;
    std::printf("%s: b[0] = %d, b[%d] = %d, sum = %lld\n", when, h[0], n - 1, h[n - 1], sum);
}

int main()
{
    const int n = 1000, threads = 256, blocks = (n + threads - 1) / threads;
    int *a, *b;
    CHECK(cudaMalloc(&a, n * sizeof(int)));
    CHECK(cudaMalloc(&b, n * sizeof(int)));
    CHECK(cudaMemset(a, 0, n * sizeof(int)));
    CHECK(cudaMemset(b, 0xFF, n * sizeof(int)));  // -1 everywhere
    cudaStream_t stream;
    CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    CHECK(cudaDeviceSynchronize());  // the memsets ran on the legacy stream, which stream does not wait for

    // Capture a memset and two kernels, the second reading the first's output.
    int factor = 3;
    printStatus("before capture", stream);
    CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
    printStatus("during capture", stream);
    CHECK(cudaMemsetAsync(a, 0, n * sizeof(int), stream));
    addOne<<<blocks, threads, 0, stream>>>(a, n);
    scaleInto<<<blocks, threads, 0, stream>>>(a, b, factor, n);
    CHECK(cudaGetLastError());
    cudaGraph_t graph = nullptr;
    CHECK(cudaStreamEndCapture(stream, &graph));
    printStatus("after capture", stream);
    std::printf("graph returned: %d\n", graph != nullptr);
    printResult("after capture, nothing has run", b, n);

    // The kernel's arguments were copied at capture: changing factor now does not change the graph.
    factor = 5;
    cudaGraphExec_t exec = nullptr;
    CHECK(cudaGraphInstantiate(&exec, graph, 0));
    CHECK(cudaGraphLaunch(exec, stream));
    CHECK(cudaStreamSynchronize(stream));
    printResult("first launch", b, n);
    CHECK(cudaMemsetAsync(b, 0xFF, n * sizeof(int), stream));
    CHECK(cudaGraphLaunch(exec, stream));
    CHECK(cudaStreamSynchronize(stream));
    printResult("second launch", b, n);

    // Synchronising the capturing stream fails and invalidates the capture: no graph.
    CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
    addOne<<<blocks, threads, 0, stream>>>(a, n);
    cudaError_t synchronized = cudaStreamSynchronize(stream);
    std::printf("cudaStreamSynchronize during capture: %s\n", cudaGetErrorName(synchronized));
    printStatus("after the synchronisation", stream);
    cudaGraph_t broken = graph;  // not null, to see that cudaStreamEndCapture writes NULL
    cudaError_t ended = cudaStreamEndCapture(stream, &broken);
    std::printf("cudaStreamEndCapture: %s, graph is null: %d\n", cudaGetErrorName(ended), broken == nullptr);
    (void)cudaGetLastError();  // capture errors are not sticky
    printStatus("after ending the capture", stream);

    // The stream works again; the kernel captured before the failure never ran.
    std::vector<int> h(n);
    CHECK(cudaMemcpyAsync(h.data(), a, n * sizeof(int), cudaMemcpyDeviceToHost, stream));
    CHECK(cudaStreamSynchronize(stream));
    std::printf("a[0] = %d, a[%d] = %d\n", h[0], n - 1, h[n - 1]);

    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(graph));
    CHECK(cudaStreamDestroy(stream));
    free_device(a, b);
    return 0;
}
