// Simulator-only: runtime calls the simulator does not model fail with
// cudaErrorNotSupported instead of pretending to work.
#include <cstdio>

int main() {
  void* p = nullptr;
  size_t pitch = 0;
  std::printf("cudaMallocPitch: %s\n", cudaGetErrorName(cudaMallocPitch(&p, &pitch, 64, 4)));
  char a[64], b[64];
  std::printf("cudaMemcpy2D: %s\n", cudaGetErrorName(cudaMemcpy2D(a, 16, b, 16, 16, 4, cudaMemcpyHostToHost)));
  std::printf("cudaDeviceSetLimit: %s\n", cudaGetErrorName(cudaDeviceSetLimit(cudaLimitStackSize, 4096)));
  return 0;
}
