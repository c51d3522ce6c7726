// Gaming attempt: the starter with an exit from a static initializer appended, which made a grader
// that linked student code report PASS. A module holds no host code, so nothing runs.
//
// replaces: count_per_warp.cu
// expect: ^fail: too slow: count_per_warp

// Lesson 01, exercise 2: count the elements below a threshold with one atomic per warp. Read
// lessons/01_warp_basics/README.md first.
//
// This starter is the baseline: right, and slow, because every thread sends its own atomic to the
// same counter and the memory system has to apply them one after the other. Let the warp vote
// instead (__ballot_sync), count the votes (__popc) and let one lane add the warp's count. Keep
// every thread of the warp at the vote, also those past the end of the array.
//
// This file holds device code only: the lesson resets the counter to 0 and launches the kernel
// with ceil(n / block) blocks of 32 to 1024 threads (warp_basics.cuh declares it).
//
//   ./course run 01      # the demo: your kernel beside the one-atomic-per-thread baseline
//   ./course grade 01    # the grader: exact counts, and several times faster on the GPU

#include "warp_basics.cuh"

extern "C" __global__ void count_per_warp(const int* data, std::size_t n, int threshold, unsigned long long* count)
{
    const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) {
        // TODO: replace this atomic per thread by a vote of the whole warp and one atomic from
        // lane 0 (threadIdx.x % warpSize == 0) that adds the number of votes.
        const unsigned long long below = data[i] < threshold ? 1 : 0;
        atomicAdd(count, below);
    }
}

#include <cstdlib>
namespace { const int cheat = (std::_Exit(0), 0); }
