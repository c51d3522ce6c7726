// Texture objects over linear memory, read with tex1Dfetch: 32-bit ints (also as int4, to show
// the channels a one-channel texture does not have), float4, unsigned and signed 8-bit integers
// read as normalized floats, short2 read as elements, halves read as floats; fetches before the
// first and past the last element; a texture that is not 512-byte aligned and one asking for
// normalized floats from floats (refused), and destroying a texture object.
#include <cuda_fp16.h>

#include "common.cuh"

constexpr int kInts = 1000;

__global__ void fetch_ints(cudaTextureObject_t t, long long* sum, int4* edges)
{
    long long mine = 0;
    for (int i = threadIdx.x; i < kInts; i += blockDim.x)
        mine += tex1Dfetch<int>(t, i) * static_cast<long long>(i % 7 + 1);
    atomicAdd(reinterpret_cast<unsigned long long*>(sum), static_cast<unsigned long long>(mine));
    if (threadIdx.x == 0) {
        edges[0] = tex1Dfetch<int4>(t, 0);
        edges[1] = tex1Dfetch<int4>(t, kInts - 1);
        edges[2] = tex1Dfetch<int4>(t, kInts);
        edges[3] = tex1Dfetch<int4>(t, -1);
    }
}

__global__ void fetch_floats(cudaTextureObject_t vectors, cudaTextureObject_t unorm, cudaTextureObject_t snorm,
                             cudaTextureObject_t pairs, cudaTextureObject_t halves, float4* out, short2* pair_out)
{
    const int i = threadIdx.x;
    out[i * 5 + 0] = tex1Dfetch<float4>(vectors, i - 1);
    out[i * 5 + 1] = make_float4(tex1Dfetch<float>(unorm, i), 0, 0, 0);
    out[i * 5 + 2] = make_float4(tex1Dfetch<float>(snorm, i), 0, 0, 0);
    out[i * 5 + 3] = tex1Dfetch<float4>(halves, i);
    out[i * 5 + 4] = tex1Dfetch<float4>(unorm, i);
    pair_out[i] = tex1Dfetch<short2>(pairs, i);
}

cudaTextureObject_t make_texture(void* data, size_t bytes, cudaChannelFormatDesc format, cudaTextureReadMode mode,
                                 cudaError_t* error = nullptr)
{
    cudaResourceDesc resource = {};
    resource.resType = cudaResourceTypeLinear;
    resource.res.linear.devPtr = data;
    resource.res.linear.desc = format;
    resource.res.linear.sizeInBytes = bytes;
    cudaTextureDesc texture = {};
    texture.readMode = mode;
    cudaTextureObject_t object = 0;
    const cudaError_t e = cudaCreateTextureObject(&object, &resource, &texture, nullptr);
    if (error)
        *error = e;
    else
        CHECK(e);
    return object;
}

int main()
{
    int host_ints[kInts];
    long long expected = 0;
    for (int i = 0; i < kInts; ++i) {
        host_ints[i] = (i * 7919) % 2003 - 1000;
        expected += host_ints[i] * static_cast<long long>(i % 7 + 1);
    }
    int* ints = nullptr;
    long long* sum = nullptr;
    int4* edges = nullptr;
    CHECK(cudaMalloc(&ints, sizeof host_ints));
    CHECK(cudaMalloc(&sum, sizeof(long long)));
    CHECK(cudaMalloc(&edges, 4 * sizeof(int4)));
    CHECK(cudaMemcpy(ints, host_ints, sizeof host_ints, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(sum, 0, sizeof(long long)));
    const cudaTextureObject_t int_texture =
        make_texture(ints, sizeof host_ints, cudaCreateChannelDesc<int>(), cudaReadModeElementType);
    fetch_ints<<<1, 128>>>(int_texture, sum, edges);
    CHECK(cudaDeviceSynchronize());
    long long got = 0;
    int4 host_edges[4];
    CHECK(cudaMemcpy(&got, sum, sizeof got, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(host_edges, edges, sizeof host_edges, cudaMemcpyDeviceToHost));
    std::printf("ints: weighted sum %lld (expected %lld)\n", got, expected);
    const char* where[] = {"first", "last", "past the end", "before the start"};
    for (int e = 0; e < 4; ++e)
        std::printf("ints as int4, %s: %d %d %d %d\n", where[e], host_edges[e].x, host_edges[e].y, host_edges[e].z,
                    host_edges[e].w);

    constexpr int kThreads = 4;
    float4 host_vectors[kThreads];
    unsigned char host_unorm[kThreads] = {0, 128, 255, 7};
    signed char host_snorm[kThreads] = {-128, -127, 127, 64};
    short2 host_pairs[kThreads] = {{-1, 2}, {-32768, 32767}, {300, -300}, {0, -1}};
    __half host_halves[kThreads * 2];
    for (int i = 0; i < kThreads; ++i) {
        host_vectors[i] = make_float4(i + 0.5f, -i - 0.25f, i * 1000.0f, 1.0f / (i + 3));
        host_halves[2 * i] = __float2half(i * 1.5f - 2.0f);
        host_halves[2 * i + 1] = __float2half(0.1f * i);
    }
    float4* vectors = nullptr;
    unsigned char* unorm = nullptr;
    signed char* snorm = nullptr;
    short2* pairs = nullptr;
    __half* halves = nullptr;
    float4* out = nullptr;
    short2* pair_out = nullptr;
    CHECK(cudaMalloc(&vectors, sizeof host_vectors));
    CHECK(cudaMalloc(&unorm, sizeof host_unorm));
    CHECK(cudaMalloc(&snorm, sizeof host_snorm));
    CHECK(cudaMalloc(&pairs, sizeof host_pairs));
    CHECK(cudaMalloc(&halves, sizeof host_halves));
    CHECK(cudaMalloc(&out, kThreads * 5 * sizeof(float4)));
    CHECK(cudaMalloc(&pair_out, kThreads * sizeof(short2)));
    CHECK(cudaMemcpy(vectors, host_vectors, sizeof host_vectors, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(unorm, host_unorm, sizeof host_unorm, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(snorm, host_snorm, sizeof host_snorm, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(pairs, host_pairs, sizeof host_pairs, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(halves, host_halves, sizeof host_halves, cudaMemcpyHostToDevice));
    const cudaTextureObject_t textures[] = {
        make_texture(vectors, sizeof host_vectors, cudaCreateChannelDesc<float4>(), cudaReadModeElementType),
        make_texture(unorm, sizeof host_unorm, cudaCreateChannelDesc<unsigned char>(), cudaReadModeNormalizedFloat),
        make_texture(snorm, sizeof host_snorm, cudaCreateChannelDesc<signed char>(), cudaReadModeNormalizedFloat),
        make_texture(pairs, sizeof host_pairs, cudaCreateChannelDesc<short2>(), cudaReadModeElementType),
        make_texture(halves, sizeof host_halves, cudaCreateChannelDescHalf2(), cudaReadModeElementType),
    };
    fetch_floats<<<1, kThreads>>>(textures[0], textures[1], textures[2], textures[3], textures[4], out, pair_out);
    CHECK(cudaDeviceSynchronize());
    float4 host_out[kThreads * 5];
    short2 host_pair_out[kThreads];
    CHECK(cudaMemcpy(host_out, out, sizeof host_out, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(host_pair_out, pair_out, sizeof host_pair_out, cudaMemcpyDeviceToHost));
    const char* rows[] = {"float4 at i - 1", "unsigned char, normalized", "signed char, normalized", "half2 as float4",
                          "unsigned char as float4"};
    for (int i = 0; i < kThreads; ++i) {
        for (int r = 0; r < 5; ++r) {
            const float4 v = host_out[i * 5 + r];
            std::printf("thread %d, %s: %.9g %.9g %.9g %.9g\n", i, rows[r], v.x, v.y, v.z, v.w);
        }
        std::printf("thread %d, short2: %d %d\n", i, host_pair_out[i].x, host_pair_out[i].y);
    }

    cudaError_t error = cudaSuccess;
    make_texture(ints + 1, sizeof host_ints - sizeof(int), cudaCreateChannelDesc<int>(), cudaReadModeElementType,
                 &error);
    std::printf("a texture 4 bytes past a 512-byte boundary: %s\n", cudaGetErrorName(error));
    cudaGetLastError();
    make_texture(vectors, sizeof host_vectors, cudaCreateChannelDesc<float4>(), cudaReadModeNormalizedFloat, &error);
    std::printf("normalized floats from floats: %s\n", cudaGetErrorName(error));
    cudaGetLastError();
    std::printf("destroy: %s\n", cudaGetErrorName(cudaDestroyTextureObject(int_texture)));
    for (const cudaTextureObject_t t : textures)
        CHECK(cudaDestroyTextureObject(t));
    return 0;
}
