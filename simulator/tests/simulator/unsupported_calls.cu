// Simulator-only: runtime calls the simulator does not model fail with
// cudaErrorNotSupported instead of pretending to work.
#include <cstdio>

int main()
{
    cudaChannelFormatDesc desc{32, 0, 0, 0, cudaChannelFormatKindFloat};
    cudaArray_t array;
    std::printf("cudaMallocArray: %s\n", cudaGetErrorName(cudaMallocArray(&array, &desc, 16, 16, 0)));
    static char buffer[4096];
    std::printf("cudaHostRegister: %s\n", cudaGetErrorName(cudaHostRegister(buffer, sizeof buffer, 0)));
    std::printf("cudaDeviceSetLimit: %s\n", cudaGetErrorName(cudaDeviceSetLimit(cudaLimitDevRuntimeSyncDepth, 4)));
    // Graphs are modelled as far as stream capture needs; launching them from the device is not.
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    std::printf("cudaGraphCreate: %s\n", cudaGetErrorName(cudaGraphCreate(&graph, 0)));
    std::printf("cudaGraphInstantiate for device launch: %s\n",
                cudaGetErrorName(cudaGraphInstantiate(&exec, graph, cudaGraphInstantiateFlagDeviceLaunch)));
    // Every other runtime function links, and fails by name: memory range queries, surfaces.
    int* data;
    cudaMallocManaged(&data, 1024);
    int readMostly = -1;
    std::printf("cudaMemRangeGetAttribute: %s\n",
                cudaGetErrorName(cudaMemRangeGetAttribute(&readMostly, sizeof readMostly,
                                                          cudaMemRangeAttributeReadMostly, data, 1024)));
    std::printf("cudaDestroySurfaceObject: %s\n", cudaGetErrorName(cudaDestroySurfaceObject(0)));
    const cudaChannelFormatDesc made = cudaCreateChannelDesc(8, 8, 0, 0, cudaChannelFormatKindUnsigned);
    std::printf("cudaCreateChannelDesc: %d %d %d %d, kind %d\n", made.x, made.y, made.z, made.w, int(made.f));
    return 0;
}
