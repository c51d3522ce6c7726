// Stream capture and graph replay through the runtime API: the rules the
// corpus program (corpus/graphs.cu) leaves out because what a GPU returns
// is less certain there, and the cases that need several threads.
#include <doctest/doctest.h>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <functional>
#include <thread>
#include <utility>
#include <vector>

namespace {

struct Stream {
    explicit Stream(unsigned flags = cudaStreamNonBlocking)
    {
        REQUIRE(cudaStreamCreateWithFlags(&s, flags) == cudaSuccess);
    }
    ~Stream() { cudaStreamDestroy(s); }
    cudaStream_t s = nullptr;
};

struct Event {
    Event() { REQUIRE(cudaEventCreate(&e) == cudaSuccess); }
    ~Event() { cudaEventDestroy(e); }
    cudaEvent_t e = nullptr;
};

// Made and freed outside captures: cudaMalloc and cudaFree are not allowed in one.
struct DeviceInts {
    explicit DeviceInts(size_t count) : n(count)
    {
        REQUIRE(cudaMalloc(reinterpret_cast<void**>(&p), n * sizeof(int)) == cudaSuccess);
        REQUIRE(cudaMemset(p, 0, n * sizeof(int)) == cudaSuccess);
    }
    ~DeviceInts() { cudaFree(p); }
    std::vector<int> get() const
    {
        std::vector<int> h(n);
        REQUIRE(cudaMemcpy(h.data(), p, n * sizeof(int), cudaMemcpyDeviceToHost) == cudaSuccess);
        return h;
    }
    int* p = nullptr;
    size_t n;
};

cudaStreamCaptureStatus status(cudaStream_t s)
{
    cudaStreamCaptureStatus st = cudaStreamCaptureStatusNone;
    REQUIRE(cudaStreamIsCapturing(s, &st) == cudaSuccess);
    return st;
}

// Ends the capture on `s`; returns its result and whether a graph came back.
cudaError_t end_capture(cudaStream_t s, bool* got_graph = nullptr)
{
    cudaGraph_t graph = reinterpret_cast<cudaGraph_t>(&graph);  // not null, to see it overwritten
    cudaError_t e = cudaStreamEndCapture(s, &graph);
    if (got_graph)
        *got_graph = graph != nullptr;
    if (e == cudaSuccess)
        cudaGraphDestroy(graph);
    cudaGetLastError();
    return e;
}

const int kPattern = 0x01010101;  // cudaMemset with 1

}  // namespace

TEST_CASE("the legacy stream cannot be captured, nor a stream twice")
{
    CHECK(cudaStreamBeginCapture(nullptr, cudaStreamCaptureModeGlobal) == cudaErrorStreamCaptureUnsupported);
    CHECK(cudaStreamBeginCapture(cudaStreamLegacy, cudaStreamCaptureModeGlobal) == cudaErrorStreamCaptureUnsupported);
    Stream a, b;
    CHECK(cudaStreamBeginCapture(b.s, static_cast<cudaStreamCaptureMode>(7)) == cudaErrorInvalidValue);
    CHECK(status(b.s) == cudaStreamCaptureStatusNone);
    REQUIRE(cudaStreamBeginCapture(a.s, cudaStreamCaptureModeGlobal) == cudaSuccess);
    CHECK(cudaStreamBeginCapture(a.s, cudaStreamCaptureModeGlobal) == cudaErrorIllegalState);
    CHECK(status(a.s) == cudaStreamCaptureStatusActive);  // the failed begin did not invalidate it
    bool got_graph = false;
    CHECK(end_capture(a.s, &got_graph) == cudaSuccess);
    CHECK(got_graph);
    CHECK(end_capture(a.s) == cudaErrorIllegalState);
    // The per-thread default stream can be captured.
    REQUIRE(cudaStreamBeginCapture(cudaStreamPerThread, cudaStreamCaptureModeGlobal) == cudaSuccess);
    CHECK(end_capture(cudaStreamPerThread) == cudaSuccess);
    cudaGetLastError();
}

TEST_CASE("captured memsets and copies run when the graph is launched, in capture order")
{
    DeviceInts a(64), b(64);
    std::vector<int> host(64, -1);
    Stream s;
    REQUIRE(cudaStreamBeginCapture(s.s, cudaStreamCaptureModeGlobal) == cudaSuccess);
    CHECK(cudaMemsetAsync(a.p, 1, 64 * sizeof(int), s.s) == cudaSuccess);
    CHECK(cudaMemcpyAsync(b.p, a.p, 64 * sizeof(int), cudaMemcpyDeviceToDevice, s.s) == cudaSuccess);
    CHECK(cudaMemsetAsync(a.p, 2, 64 * sizeof(int), s.s) == cudaSuccess);
    CHECK(cudaMemcpyAsync(host.data(), b.p, 64 * sizeof(int), cudaMemcpyDeviceToHost, s.s) == cudaSuccess);
    cudaGraph_t graph = nullptr;
    REQUIRE(cudaStreamEndCapture(s.s, &graph) == cudaSuccess);
    CHECK(a.get()[0] == 0);  // nothing ran yet
    CHECK(b.get()[0] == 0);
    CHECK(host[0] == -1);

    cudaGraphExec_t exec = nullptr;
    REQUIRE(cudaGraphInstantiate(&exec, graph, 0) == cudaSuccess);
    CHECK(cudaGraphDestroy(graph) == cudaSuccess);  // the executable graph keeps its own copy
    Event start, stop;
    REQUIRE(cudaEventRecord(start.e, s.s) == cudaSuccess);
    REQUIRE(cudaGraphLaunch(exec, s.s) == cudaSuccess);
    REQUIRE(cudaEventRecord(stop.e, s.s) == cudaSuccess);
    REQUIRE(cudaStreamSynchronize(s.s) == cudaSuccess);
    CHECK(b.get()[63] == kPattern);
    CHECK(a.get()[63] == 0x02020202);
    CHECK(host[63] == kPattern);
    float ms = 0;
    REQUIRE(cudaEventElapsedTime(&ms, start.e, stop.e) == cudaSuccess);
    CHECK(ms > 0.0f);  // the replayed copies advanced the modelled clock
    CHECK(cudaGraphExecDestroy(exec) == cudaSuccess);
    CHECK(cudaGraphExecDestroy(exec) == cudaErrorInvalidValue);
    cudaGetLastError();
}

TEST_CASE("calls that wait for the device or allocate invalidate a global-mode capture")
{
    DeviceInts a(16);
    Stream other;
    Event outside, captured;
    REQUIRE(cudaEventRecord(outside.e, other.s) == cudaSuccess);
    std::vector<int> host(16);
    struct Case {
        const char* name;
        cudaError_t expected;
        std::function<cudaError_t(cudaStream_t)> call;
    };
    const std::vector<Case> cases = {
        {"cudaStreamSynchronize", cudaErrorStreamCaptureUnsupported,
         [](cudaStream_t s) { return cudaStreamSynchronize(s); }},
        {"cudaStreamQuery", cudaErrorStreamCaptureUnsupported, [](cudaStream_t s) { return cudaStreamQuery(s); }},
        {"cudaDeviceSynchronize", cudaErrorStreamCaptureUnsupported,
         [](cudaStream_t) { return cudaDeviceSynchronize(); }},
        {"cudaMalloc", cudaErrorStreamCaptureUnsupported,
         [](cudaStream_t) {
             void* p = nullptr;
             return cudaMalloc(&p, 16);
         }},
        {"cudaFree", cudaErrorStreamCaptureUnsupported, [&](cudaStream_t) { return cudaFree(a.p); }},
        {"cudaMemcpy to the host", cudaErrorStreamCaptureUnsupported,
         [&](cudaStream_t) { return cudaMemcpy(host.data(), a.p, 16 * sizeof(int), cudaMemcpyDeviceToHost); }},
        {"cudaStreamSynchronize of another stream", cudaErrorStreamCaptureUnsupported,
         [&](cudaStream_t) { return cudaStreamSynchronize(other.s); }},
        {"cudaEventQuery", cudaErrorStreamCaptureUnsupported, [&](cudaStream_t) { return cudaEventQuery(outside.e); }},
        {"cudaEventSynchronize of a captured event", cudaErrorCapturedEvent,
         [&](cudaStream_t s) {
             cudaEventRecord(captured.e, s);
             return cudaEventSynchronize(captured.e);
         }},
        {"cudaStreamWaitEvent on an event recorded outside", cudaErrorStreamCaptureIsolation,
         [&](cudaStream_t s) { return cudaStreamWaitEvent(s, outside.e, 0); }},
        {"a bad cudaMemsetAsync", cudaErrorInvalidValue,
         [&](cudaStream_t s) { return cudaMemsetAsync(host.data(), 0, 4, s); }},
    };
    for (const Case& c : cases) {
        CAPTURE(c.name);
        Stream s;
        REQUIRE(cudaStreamBeginCapture(s.s, cudaStreamCaptureModeGlobal) == cudaSuccess);
        CHECK(c.call(s.s) == c.expected);
        CHECK(status(s.s) == cudaStreamCaptureStatusInvalidated);
        // Further work on the stream fails until the capture ends.
        CHECK(cudaMemsetAsync(a.p, 0, 4, s.s) == cudaErrorStreamCaptureInvalidated);
        bool got_graph = true;
        CHECK(end_capture(s.s, &got_graph) == cudaErrorStreamCaptureInvalidated);
        CHECK_FALSE(got_graph);
        CHECK(status(s.s) == cudaStreamCaptureStatusNone);
        CHECK(cudaMemsetAsync(a.p, 0, 4, s.s) == cudaSuccess);
    }
    CHECK(a.get()[0] == 0);  // the refused cudaFree did not free it
    cudaGetLastError();
}

TEST_CASE("the legacy stream is unusable while a blocking stream captures")
{
    DeviceInts a(16);
    Stream blocking(cudaStreamDefault);
    REQUIRE(cudaStreamBeginCapture(blocking.s, cudaStreamCaptureModeGlobal) == cudaSuccess);
    cudaStreamCaptureStatus st;
    CHECK(cudaStreamIsCapturing(nullptr, &st) == cudaErrorStreamCaptureImplicit);
    CHECK(status(blocking.s) == cudaStreamCaptureStatusActive);  // asking does not invalidate
    CHECK(cudaMemsetAsync(a.p, 1, 16 * sizeof(int), nullptr) == cudaErrorStreamCaptureImplicit);
    CHECK(status(blocking.s) == cudaStreamCaptureStatusInvalidated);
    CHECK(end_capture(blocking.s) == cudaErrorStreamCaptureInvalidated);

    for (auto call : {+[](int* p) { return cudaMemset(p, 1, 4); },
                      +[](int* p) { return cudaMemcpy(p, p + 1, 4, cudaMemcpyDeviceToDevice); },
                      +[](int*) { return cudaStreamSynchronize(nullptr); }}) {
        REQUIRE(cudaStreamBeginCapture(blocking.s, cudaStreamCaptureModeRelaxed) == cudaSuccess);
        CHECK(call(a.p) == cudaErrorStreamCaptureImplicit);
        CHECK(end_capture(blocking.s) == cudaErrorStreamCaptureInvalidated);
    }

    // A non-blocking stream does not order with the legacy stream: work there runs at once.
    Stream non_blocking;
    REQUIRE(cudaStreamBeginCapture(non_blocking.s, cudaStreamCaptureModeGlobal) == cudaSuccess);
    CHECK(cudaMemsetAsync(a.p, 1, 16 * sizeof(int), nullptr) == cudaSuccess);
    CHECK(cudaMemset(a.p, 1, 16 * sizeof(int)) == cudaSuccess);
    CHECK(end_capture(non_blocking.s) == cudaSuccess);
    CHECK(a.get()[15] == kPattern);
    cudaGetLastError();
}

TEST_CASE("capture modes: relaxed allows cudaMalloc, thread-local ignores other threads")
{
    Stream s;
    void* p = nullptr;
    REQUIRE(cudaStreamBeginCapture(s.s, cudaStreamCaptureModeRelaxed) == cudaSuccess);
    CHECK(cudaMalloc(&p, 64) == cudaSuccess);
    CHECK(cudaFree(p) == cudaSuccess);
    CHECK(status(s.s) == cudaStreamCaptureStatusActive);
    CHECK(cudaDeviceSynchronize() == cudaErrorStreamCaptureUnsupported);  // in any mode
    CHECK(end_capture(s.s) == cudaErrorStreamCaptureInvalidated);

    // The thread's own mode can relax a global capture's rules for itself.
    REQUIRE(cudaStreamBeginCapture(s.s, cudaStreamCaptureModeGlobal) == cudaSuccess);
    cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
    REQUIRE(cudaThreadExchangeStreamCaptureMode(&mode) == cudaSuccess);
    CHECK(mode == cudaStreamCaptureModeGlobal);
    CHECK(cudaMalloc(&p, 64) == cudaSuccess);
    CHECK(cudaFree(p) == cudaSuccess);
    REQUIRE(cudaThreadExchangeStreamCaptureMode(&mode) == cudaSuccess);
    CHECK(mode == cudaStreamCaptureModeRelaxed);
    CHECK(end_capture(s.s) == cudaSuccess);

    // Another thread's cudaMalloc breaks a global capture, not a thread-local one.
    for (auto [capture_mode, expected] : {std::pair{cudaStreamCaptureModeGlobal, cudaErrorStreamCaptureUnsupported},
                                          std::pair{cudaStreamCaptureModeThreadLocal, cudaSuccess}}) {
        REQUIRE(cudaStreamBeginCapture(s.s, capture_mode) == cudaSuccess);
        cudaError_t result = cudaSuccess;
        std::thread([&] {
            void* q = nullptr;
            result = cudaMalloc(&q, 64);
            if (result == cudaSuccess)
                cudaFree(q);
        }).join();
        CHECK(result == expected);
        CHECK(end_capture(s.s) == (expected == cudaSuccess ? cudaSuccess : cudaErrorStreamCaptureInvalidated));
    }

    // Only the thread that began a global capture may end it.
    REQUIRE(cudaStreamBeginCapture(s.s, cudaStreamCaptureModeGlobal) == cudaSuccess);
    cudaError_t ended = cudaSuccess;
    std::thread([&] { ended = end_capture(s.s); }).join();
    CHECK(ended == cudaErrorStreamCaptureWrongThread);
    CHECK(end_capture(s.s) == cudaSuccess);
    cudaGetLastError();
}

TEST_CASE("a graph launched into a capturing stream joins the capture")
{
    DeviceInts a(8), b(8);
    Stream s;
    cudaGraph_t inner = nullptr, outer = nullptr;
    REQUIRE(cudaStreamBeginCapture(s.s, cudaStreamCaptureModeGlobal) == cudaSuccess);
    REQUIRE(cudaMemsetAsync(a.p, 1, 8 * sizeof(int), s.s) == cudaSuccess);
    REQUIRE(cudaStreamEndCapture(s.s, &inner) == cudaSuccess);
    cudaGraphExec_t inner_exec = nullptr, outer_exec = nullptr;
    REQUIRE(cudaGraphInstantiate(&inner_exec, inner, 0) == cudaSuccess);

    REQUIRE(cudaStreamBeginCapture(s.s, cudaStreamCaptureModeGlobal) == cudaSuccess);
    REQUIRE(cudaGraphLaunch(inner_exec, s.s) == cudaSuccess);
    REQUIRE(cudaMemcpyAsync(b.p, a.p, 8 * sizeof(int), cudaMemcpyDeviceToDevice, s.s) == cudaSuccess);
    REQUIRE(cudaStreamEndCapture(s.s, &outer) == cudaSuccess);
    CHECK(a.get()[0] == 0);
    REQUIRE(cudaGraphInstantiateWithFlags(&outer_exec, outer, 0) == cudaSuccess);
    REQUIRE(cudaGraphLaunch(outer_exec, s.s) == cudaSuccess);
    REQUIRE(cudaStreamSynchronize(s.s) == cudaSuccess);
    CHECK(b.get()[7] == kPattern);
    cudaGraphExecDestroy(outer_exec);
    cudaGraphExecDestroy(inner_exec);
    cudaGraphDestroy(outer);
    cudaGraphDestroy(inner);
}

TEST_CASE("cudaStreamGetCaptureInfo: status, id, dependency count")
{
    DeviceInts a(4);
    Stream s;
    cudaStreamCaptureStatus st;
    unsigned long long first = 0, second = 0;
    size_t dependencies = 99;
    CHECK(cudaStreamGetCaptureInfo(s.s, &st, &first) == cudaSuccess);
    CHECK(st == cudaStreamCaptureStatusNone);
    REQUIRE(cudaStreamBeginCapture(s.s, cudaStreamCaptureModeGlobal) == cudaSuccess);
    CHECK(cudaStreamGetCaptureInfo(s.s, &st, &first, nullptr, nullptr, nullptr, &dependencies) == cudaSuccess);
    CHECK(st == cudaStreamCaptureStatusActive);
    CHECK(dependencies == 0);
    REQUIRE(cudaMemsetAsync(a.p, 0, 4, s.s) == cudaSuccess);
    CHECK(cudaStreamGetCaptureInfo(s.s, &st, nullptr, nullptr, nullptr, nullptr, &dependencies) == cudaSuccess);
    CHECK(dependencies == 1);
    cudaGraph_t graph = nullptr;
    CHECK(cudaStreamGetCaptureInfo(s.s, &st, nullptr, &graph) == cudaErrorNotSupported);
    CHECK(end_capture(s.s) == cudaSuccess);
    REQUIRE(cudaStreamBeginCapture(s.s, cudaStreamCaptureModeGlobal) == cudaSuccess);
    CHECK(cudaStreamGetCaptureInfo(s.s, &st, &second) == cudaSuccess);
    CHECK(second != first);
    CHECK(end_capture(s.s) == cudaSuccess);
    cudaGetLastError();
}

TEST_CASE("event records: a captured record is not replayed, an external one is")
{
    DeviceInts a(1 << 16), b(1 << 16);
    Stream s;
    Event plain, start, stop;
    REQUIRE(cudaStreamBeginCapture(s.s, cudaStreamCaptureModeGlobal) == cudaSuccess);
    REQUIRE(cudaEventRecord(plain.e, s.s) == cudaSuccess);
    REQUIRE(cudaEventRecordWithFlags(start.e, s.s, cudaEventRecordExternal) == cudaSuccess);
    REQUIRE(cudaMemcpyAsync(b.p, a.p, a.n * sizeof(int), cudaMemcpyDeviceToDevice, s.s) == cudaSuccess);
    REQUIRE(cudaEventRecordWithFlags(stop.e, s.s, cudaEventRecordExternal) == cudaSuccess);
    // Waiting in the capture on its own event adds nothing.
    CHECK(cudaStreamWaitEvent(s.s, plain.e, 0) == cudaSuccess);
    cudaGraph_t graph = nullptr;
    REQUIRE(cudaStreamEndCapture(s.s, &graph) == cudaSuccess);
    cudaGraphExec_t exec = nullptr;
    REQUIRE(cudaGraphInstantiate(&exec, graph, 0) == cudaSuccess);
    REQUIRE(cudaGraphLaunch(exec, s.s) == cudaSuccess);
    REQUIRE(cudaStreamSynchronize(s.s) == cudaSuccess);
    float ms = 0;
    REQUIRE(cudaEventElapsedTime(&ms, start.e, stop.e) == cudaSuccess);
    CHECK(ms > 0.0f);
    CHECK(cudaEventElapsedTime(&ms, plain.e, stop.e) == cudaErrorInvalidResourceHandle);  // never recorded
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
    cudaGetLastError();
}
