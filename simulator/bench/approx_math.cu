// The approximate math instructions (ex2/lg2/sin/cos/rsqrt/rcp/tanh .approx, div.approx) and the
// CUDA functions built on them, over a fixed set of inputs: writes every input and result, as
// bits, to a file, so that a run on a GPU and a run on the simulator can be compared bit for bit
// (simulator/tools/compare_approx_math.py).
//
//   approx_math OUTPUT_FILE
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

constexpr int kInputs = 1 << 16;

// One operation on a float or a pair: its name and the range its inputs are drawn from.
enum Operation {
    kEx2,
    kEx2Ftz,
    kLg2,
    kSin,
    kCos,
    kRsqrt,
    kRcp,
    kRcpFtz,
    kTanh,
    kDivApprox,
    kExpfIntrinsic,  // __expf
    kSinfIntrinsic,  // __sinf
    kPowfIntrinsic,  // __powf
    kFdividef,       // __fdividef
    kExpf,
    kPowf,
    kTanf,
    kRsqrtf,
    kOperations
};
const char* const kNames[kOperations] = {"ex2.approx.f32",
                                         "ex2.approx.ftz.f32",
                                         "lg2.approx.f32",
                                         "sin.approx.f32",
                                         "cos.approx.f32",
                                         "rsqrt.approx.f32",
                                         "rcp.approx.f32",
                                         "rcp.approx.ftz.f32",
                                         "tanh.approx.f32",
                                         "div.approx.f32",
                                         "__expf",
                                         "__sinf",
                                         "__powf",
                                         "__fdividef",
                                         "expf",
                                         "powf",
                                         "tanf",
                                         "rsqrtf"};

__device__ float apply(int op, float a, float b)
{
    float r = 0;
    switch (op) {
    case kEx2:
        asm("ex2.approx.f32 %0, %1;" : "=f"(r) : "f"(a));
        break;
    case kEx2Ftz:
        asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(a));
        break;
    case kLg2:
        asm("lg2.approx.f32 %0, %1;" : "=f"(r) : "f"(a));
        break;
    case kSin:
        asm("sin.approx.f32 %0, %1;" : "=f"(r) : "f"(a));
        break;
    case kCos:
        asm("cos.approx.f32 %0, %1;" : "=f"(r) : "f"(a));
        break;
    case kRsqrt:
        asm("rsqrt.approx.f32 %0, %1;" : "=f"(r) : "f"(a));
        break;
    case kRcp:
        asm("rcp.approx.f32 %0, %1;" : "=f"(r) : "f"(a));
        break;
    case kRcpFtz:
        asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(a));
        break;
    case kTanh:
        asm("tanh.approx.f32 %0, %1;" : "=f"(r) : "f"(a));
        break;
    case kDivApprox:
        asm("div.approx.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
        break;
    case kExpfIntrinsic:
        r = __expf(a);
        break;
    case kSinfIntrinsic:
        r = __sinf(a);
        break;
    case kPowfIntrinsic:
        r = __powf(a, b);
        break;
    case kFdividef:
        r = __fdividef(a, b);
        break;
    case kExpf:
        r = expf(a);
        break;
    case kPowf:
        r = powf(a, b);
        break;
    case kTanf:
        r = tanf(a);
        break;
    default:
        r = rsqrtf(a);
        break;
    }
    return r;
}

__global__ void evaluate(const float* a, const float* b, float* out)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= kInputs)
        return;
    for (int op = 0; op < kOperations; ++op)
        out[op * kInputs + i] = apply(op, a[op * kInputs + i], b[op * kInputs + i]);
}

// The inputs of `op`: a few special values, then values spread over the range where the
// operation is used (log-uniform where it spans magnitudes), from a fixed generator.
void make_inputs(int op, float* a, float* b)
{
    std::uint64_t state = 0x9e3779b97f4a7c15ull * (op + 1);
    auto uniform = [&state] {  // [0, 1)
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        return static_cast<double>(state >> 11) * 0x1.0p-53;
    };
    const float specials[] = {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, 2.0f, 1e-40f, -1e-40f, 3.14159265f, 1e30f};
    for (int i = 0; i < kInputs; ++i) {
        double x = 0;
        switch (op) {
        case kEx2:
        case kEx2Ftz:
            x = -130 + 260 * uniform();
            break;
        case kExpfIntrinsic:
        case kExpf:
            x = -90 + 180 * uniform();
            break;
        case kSin:
        case kCos:
        case kSinfIntrinsic:
        case kTanf:
            x = -200 + 400 * uniform();
            break;
        case kTanh:
            x = -12 + 24 * uniform();
            break;
        default:
            x = (uniform() < 0.5 ? -1 : 1) * __builtin_exp2(-60 + 120 * uniform());
            break;
        }
        if (op == kLg2 || op == kRsqrt || op == kRsqrtf || op == kPowfIntrinsic || op == kPowf)
            x = x < 0 ? -x : x;
        a[i] = i < 10 ? specials[i] : static_cast<float>(x);
        b[i] = op == kPowfIntrinsic || op == kPowf
                   ? static_cast<float>(-8 + 16 * uniform())
                   : static_cast<float>((uniform() < 0.5 ? -1 : 1) * __builtin_exp2(-30 + 60 * uniform()));
    }
}

int main(int argc, char** argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: approx_math OUTPUT_FILE\n");
        return 2;
    }
    const std::size_t count = std::size_t{kOperations} * kInputs;
    std::vector<float> a(count), b(count), out(count);
    for (int op = 0; op < kOperations; ++op)
        make_inputs(op, a.data() + op * kInputs, b.data() + op * kInputs);
    float *da = nullptr, *db = nullptr, *dout = nullptr;
    if (cudaMalloc(&da, count * 4) != cudaSuccess || cudaMalloc(&db, count * 4) != cudaSuccess ||
        cudaMalloc(&dout, count * 4) != cudaSuccess) {
        std::fprintf(stderr, "approx_math: cudaMalloc failed\n");
        return 1;
    }
    cudaMemcpy(da, a.data(), count * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(db, b.data(), count * 4, cudaMemcpyHostToDevice);
    evaluate<<<kInputs / 256, 256>>>(da, db, dout);
    const cudaError_t e = cudaMemcpy(out.data(), dout, count * 4, cudaMemcpyDeviceToHost);
    if (e != cudaSuccess) {
        std::fprintf(stderr, "approx_math: %s\n", cudaGetErrorName(e));
        return 1;
    }
    std::FILE* file = std::fopen(argv[1], "wb");
    if (!file) {
        std::fprintf(stderr, "approx_math: cannot write %s\n", argv[1]);
        return 1;
    }
    const std::uint32_t header[2] = {kOperations, kInputs};
    std::fwrite(header, sizeof header, 1, file);
    for (int op = 0; op < kOperations; ++op) {
        char name[32] = {};
        std::strncpy(name, kNames[op], sizeof name - 1);
        std::fwrite(name, sizeof name, 1, file);
    }
    std::fwrite(a.data(), 4, count, file);
    std::fwrite(b.data(), 4, count, file);
    std::fwrite(out.data(), 4, count, file);
    std::fclose(file);
    std::printf("approx_math: %d operations x %d inputs written to %s\n", kOperations, kInputs, argv[1]);
    return 0;
}
