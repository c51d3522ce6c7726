// Lesson 09 exercise: the whole sum of an int array in ONE kernel launch, faster than lesson 05's
// two. Read lessons/09_one_launch_reduction/README.md first.
//
// This file holds device code only: reduce_once and reduce_once_launch, the launch choices the
// lesson reads from your module. The lesson's reduce_once (host code you do not edit) launches
// reduce_once once per call on max(1, min(ceil(n / (block x items_per_thread)),
// max_blocks_per_sm x SMs)) blocks of `block` threads, on the caller's stream, with a workspace:
// `partials` (one long long per block, poisoned) and `ticket` (an unsigned that is 0 when the
// call starts and must be 0 again when it ends).
//
// This starter is right for every n and slow: it asks for so many elements per thread that the
// grid is always ONE block, which then reads the whole array alone, 4 bytes at a time. One block
// needs no coordination; many blocks do: each can add its share, but only one of them may write
// *result, and only once every other block's share is known. Give every block a partial in
// `partials`, let each block take a ticket from the counter when its partial is written, and let
// the block that takes the last ticket add the partials and write *result. Mind what orders the
// partials' stores before the ticket, and what the next call finds in the counter.
//
//   ./course run 09      # the demo: your reduce_once beside lesson 05's two launches and CUB
//   ./course grade 09    # the grader: exact sums, many calls, two streams, a graph, the speed check

#include "one_launch.cuh"

namespace {

constexpr unsigned kBlock = 256;

/// The sum over the block, valid in thread 0 (lesson 04's sequential addressing, in 64 bits).
__device__ long long block_sum(long long value)
{
    __shared__ long long cache[kBlock];
    const unsigned tid = threadIdx.x;
    cache[tid] = value;
    __syncthreads();
    for (unsigned stride = kBlock / 2; stride > 0; stride /= 2) {
        if (tid < stride)
            cache[tid] += cache[tid + stride];
        __syncthreads();
    }
    return cache[0];
}

}  // namespace

// TODO: a grid of many blocks for large arrays (about one wave: the demo prints how many blocks of
// your reduce_once one SM holds), and few for small ones.
extern "C" __constant__ lesson09::ReduceOnceLaunch reduce_once_launch = {
    .block = kBlock,
    .items_per_thread = 1u << 30,  // so many that one block takes any array
    .max_blocks_per_sm = 1,
    .cooperative = 0,
};

/// One block adds everything; a grid-stride loop that is right for any grid.
// TODO: with more than one block, write this block's sum to partials[blockIdx.x], take a ticket,
// and let the last block add the partials into *result (and set the ticket back to 0).
extern "C" __global__ void reduce_once(const int* data, std::size_t n, long long* result, long long* /*partials*/,
                                       unsigned int* /*ticket*/)
{
    long long sum = 0;
    for (std::size_t i = std::size_t(blockIdx.x) * kBlock + threadIdx.x; i < n; i += std::size_t(gridDim.x) * kBlock)
        sum += data[i];
    sum = block_sum(sum);
    if (threadIdx.x == 0)
        *result = sum;
}
