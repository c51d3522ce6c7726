// Simulator-only: runtime calls the simulator does not model fail with
// cudaErrorNotSupported instead of pretending to work.
#include <cstdio>

int main() {
  cudaGraph_t graph;
  std::printf("cudaGraphCreate: %s\n", cudaGetErrorName(cudaGraphCreate(&graph, 0)));
  static char buffer[4096];
  std::printf("cudaHostRegister: %s\n", cudaGetErrorName(cudaHostRegister(buffer, sizeof buffer, 0)));
  std::printf("cudaDeviceSetLimit: %s\n", cudaGetErrorName(cudaDeviceSetLimit(cudaLimitStackSize, 4096)));
  return 0;
}
