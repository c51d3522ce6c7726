#include "course/reduction.hpp"

#include "course/cuda_check.hpp"

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace course {

std::vector<std::int64_t> expected_block_sums(std::span<const int> input, unsigned block)
{
    std::vector<std::int64_t> sums(blocks_for(input.size(), block), 0);
    for (std::size_t i = 0; i < input.size(); ++i)
        sums[i / block] += input[i];
    return sums;
}

std::optional<std::string> compare_partials(std::span<const int> got, std::span<const std::int64_t> expected,
                                            unsigned block, std::size_t n)
{
    std::size_t wrong = 0;
    std::size_t first = 0;
    for (std::size_t b = 0; b < expected.size(); ++b) {
        if (got[b] != expected[b] && wrong++ == 0)
            first = b;
    }
    if (wrong == 0)
        return std::nullopt;

    const std::size_t begin = first * block;
    const std::size_t end = std::min(n, begin + block) - 1;
    std::ostringstream text;
    text << "block " << first << " (elements " << begin << ".." << end << ") ";
    if (got[first] == kPoisonInt)
        text << "was never written (partials[" << first << "] still holds the poison value " << kPoisonInt << ")";
    else
        text << "holds " << got[first] << ", expected " << expected[first];
    text << "; " << wrong << " of " << expected.size() << (expected.size() == 1 ? " block is" : " blocks are")
         << " wrong";
    return text.str();
}

namespace {

std::vector<int> with_guard(std::span<const int> input)
{
    std::vector<int> padded(input.begin(), input.end());
    padded.resize(input.size() + kGuardElements, kPoisonInt);
    return padded;
}

}  // namespace

BlockReductionBench::BlockReductionBench(std::span<const int> input, unsigned block)
    : pristine_(std::span<const int>(with_guard(input))), working_(input.size() + kGuardElements),
      partials_(blocks_for(input.size(), block)), n_(input.size()), block_(block)
{
}

void BlockReductionBench::replace_input(std::span<const int> input)
{
    if (input.size() != n_)
        throw std::invalid_argument("BlockReductionBench::replace_input: the new input must hold n elements");
    pristine_.upload(std::span<const int>(with_guard(input)));
}

void BlockReductionBench::change(std::span<const std::size_t> positions, std::span<const int> values,
                                 cudaStream_t stream)
{
    if (positions.size() != values.size())
        throw std::invalid_argument("BlockReductionBench::change: a value for every position");
    for (std::size_t i = 0; i < positions.size(); ++i) {
        if (positions[i] >= n_)
            throw std::invalid_argument("BlockReductionBench::change: a position past the input");
        COURSE_CUDA_CHECK(
            cudaMemcpyAsync(working_.data() + positions[i], &values[i], sizeof(int), cudaMemcpyHostToDevice, stream));
    }
    // The values live in the caller's memory: the copies finish before it may change them.
    COURSE_CUDA_CHECK(cudaStreamSynchronize(stream));
}

void BlockReductionBench::launch(BlockReduceLauncher launch, cudaStream_t stream)
{
    launch(working_.data(), partials_.data(), n(), block_, stream);
    COURSE_CHECK_LAUNCH();
}

std::vector<int> BlockReductionBench::run_once(BlockReduceLauncher launch)
{
    restore(nullptr);
    poison(nullptr);
    this->launch(launch, nullptr);
    COURSE_CUDA_CHECK(cudaDeviceSynchronize());
    return partials();
}

}  // namespace course
