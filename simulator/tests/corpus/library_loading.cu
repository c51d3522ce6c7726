// Libraries loaded at run time: PTX text (as nvcc -ptx -arch=compute_75 writes it for the kernel
// in the comment below) loaded with cudaLibraryLoadData, a kernel found by name and launched
// through cudaLaunchKernel, its parameters listed, a __constant__ array read back, and the
// answers for names that are not there.
//
//   extern "C" __constant__ int offsets[4] = {1, 2, 3, 4};
//   extern "C" __global__ void scale(int* data, int factor, unsigned long long n)
//   {
//       const unsigned long long i = blockIdx.x * 1ull * blockDim.x + threadIdx.x;
//       if (i < n)
//           data[i] = data[i] * factor + offsets[i % 4];
//   }
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

#include "common.cuh"

namespace {

const char* kPtx = R"(
.version 9.0
.target sm_75
.address_size 64

.const .align 4 .b8 offsets[16] = {1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4};

.visible .entry scale(
	.param .u64 scale_param_0,
	.param .u32 scale_param_1,
	.param .u64 scale_param_2
)
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<8>;
	.reg .b64 	%rd<12>;

	ld.param.u64 	%rd2, [scale_param_0];
	ld.param.u32 	%r1, [scale_param_1];
	ld.param.u64 	%rd3, [scale_param_2];
	mov.u32 	%r2, %ctaid.x;
	mov.u32 	%r3, %ntid.x;
	mul.wide.u32 	%rd4, %r2, %r3;
	mov.u32 	%r4, %tid.x;
	cvt.u64.u32 	%rd5, %r4;
	add.s64 	%rd1, %rd4, %rd5;
	setp.ge.u64 	%p1, %rd1, %rd3;
	@%p1 bra 	$L__BB0_2;

	cvta.to.global.u64 	%rd6, %rd2;
	shl.b64 	%rd7, %rd1, 2;
	add.s64 	%rd8, %rd6, %rd7;
	ld.global.u32 	%r5, [%rd8];
	and.b64  	%rd9, %rd7, 12;
	mov.u64 	%rd10, offsets;
	add.s64 	%rd11, %rd10, %rd9;
	ld.const.u32 	%r6, [%rd11];
	mad.lo.s32 	%r7, %r5, %r1, %r6;
	st.global.u32 	[%rd8], %r7;

$L__BB0_2:
	ret;
}
)";

}  // namespace

int main()
{
    cudaLibrary_t library = nullptr;
    CHECK(cudaLibraryLoadData(&library, kPtx, nullptr, nullptr, 0, nullptr, nullptr, 0));

    cudaKernel_t kernel = nullptr;
    CHECK(cudaLibraryGetKernel(&kernel, library, "scale"));
    const void* function = reinterpret_cast<const void*>(kernel);
    for (size_t i = 0;; ++i) {
        size_t offset = 0, size = 0;
        cudaError_t e = cudaFuncGetParamInfo(function, i, &offset, &size);
        if (e != cudaSuccess) {
            std::printf("parameter %zu: %s\n", i, cudaGetErrorName(e));
            cudaGetLastError();
            break;
        }
        std::printf("parameter %zu: offset %zu, %zu bytes\n", i, offset, size);
    }

    const unsigned long long n = 37;
    std::vector<int> host(n);
    for (unsigned long long i = 0; i < n; ++i)
        host[i] = static_cast<int>(i) - 10;
    int* data = nullptr;
    CHECK(cudaMalloc(&data, n * sizeof(int)));
    CHECK(cudaMemcpy(data, host.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    int factor = 3;
    unsigned long long count = n;
    void* args[] = {&data, &factor, &count};
    CHECK(cudaLaunchKernel(function, dim3(2), dim3(32), args, 0, nullptr));
    CHECK(cudaMemcpy(host.data(), data, n * sizeof(int), cudaMemcpyDeviceToHost));
    std::printf("scaled:");
    for (int v : host)
        std::printf(" %d", v);
    std::printf("\n");

    cudaFuncAttributes attributes{};
    CHECK(cudaFuncGetAttributes(&attributes, function));
    std::printf("attributes: %zu bytes static shared memory, %zu bytes local memory\n", attributes.sharedSizeBytes,
                attributes.localSizeBytes);

    void* offsets = nullptr;
    size_t bytes = 0;
    CHECK(cudaLibraryGetGlobal(&offsets, &bytes, library, "offsets"));
    int table[4] = {};
    CHECK(cudaMemcpy(table, offsets, sizeof table, cudaMemcpyDeviceToHost));
    std::printf("offsets: %zu bytes: %d %d %d %d\n", bytes, table[0], table[1], table[2], table[3]);

    cudaKernel_t missing = nullptr;
    std::printf("kernel 'missing': %s\n", cudaGetErrorName(cudaLibraryGetKernel(&missing, library, "missing")));
    std::printf("global 'missing': %s\n", cudaGetErrorName(cudaLibraryGetGlobal(&offsets, &bytes, library, "missing")));
    cudaGetLastError();
    CHECK(cudaFree(data));
    CHECK(cudaLibraryUnload(library));
    std::printf("done\n");
    return 0;
}
