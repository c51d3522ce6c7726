// The ordering check across blocks, on the last-block pattern of a one-launch reduction: each block
// stores its partial, thread 0 takes a ticket, and the block that takes the last ticket reads every
// partial. A GPU almost always gives the right sum whatever the fences; the checker must report the
// three broken orderings (no fence, a fence after the ticket instead of before it, a block-scope
// fence) and pass the three right ones (fences before and after the ticket, an acq_rel atomic,
// a fence before the ticket with the partials read through volatile).
#include <cuda/atomic>

#include "common.cuh"

constexpr unsigned kBlocks = 8;

enum class Order { none, fence_after_ticket, block_fence, fences, acq_rel, volatile_reads };

template <Order kOrder>
__global__ void lastBlockSum(const int* data, int* partials, unsigned* ticket, int* sum)
{
    __shared__ bool last;
    if (threadIdx.x == 0) {
        partials[blockIdx.x] = data[blockIdx.x];
        if constexpr (kOrder == Order::acq_rel) {
            cuda::atomic_ref<unsigned, cuda::thread_scope_device> counter(*ticket);
            last = counter.fetch_add(1, cuda::memory_order_acq_rel) == gridDim.x - 1;
        } else {
            if constexpr (kOrder == Order::fences || kOrder == Order::volatile_reads)
                __threadfence();
            if constexpr (kOrder == Order::block_fence)
                __threadfence_block();
            last = atomicAdd(ticket, 1u) == gridDim.x - 1;
            if constexpr (kOrder == Order::fences || kOrder == Order::fence_after_ticket)
                __threadfence();
        }
    }
    __syncthreads();
    if (!last || threadIdx.x != 0)
        return;
    int total = 0;
    for (unsigned b = 0; b < gridDim.x; ++b) {
        if constexpr (kOrder == Order::volatile_reads)
            total += static_cast<volatile int*>(partials)[b];  // strong reads
        else
            total += partials[b];
    }
    *sum = total;
}

template <Order kOrder>
void run(const char* what)
{
    int host[kBlocks];
    for (unsigned i = 0; i < kBlocks; ++i)
        host[i] = static_cast<int>(i) + 1;
    int *data, *partials, *sum;
    unsigned* ticket;
    cudaMalloc(&data, sizeof host);
    cudaMalloc(&partials, sizeof host);
    cudaMalloc(&sum, sizeof(int));
    cudaMalloc(&ticket, sizeof(unsigned));
    cudaMemcpy(data, host, sizeof host, cudaMemcpyHostToDevice);
    cudaMemset(ticket, 0, sizeof(unsigned));
    lastBlockSum<kOrder><<<kBlocks, 64>>>(data, partials, ticket, sum);
    report(what, cudaDeviceSynchronize());
    cudaDeviceReset();
}

int main()
{
    run<Order::none>("no fence");
    run<Order::fence_after_ticket>("a fence after the ticket only");
    run<Order::block_fence>("a block-scope fence before the ticket");
    run<Order::fences>("fences before and after the ticket");
    run<Order::acq_rel>("an acq_rel ticket");
    run<Order::volatile_reads>("a fence before the ticket, volatile reads");
    return 0;
}
