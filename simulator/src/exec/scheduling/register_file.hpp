// The registers of a block's warps, kept from one block runner to the next: a file holds 64 bits
// per lane of every PTX register, and a kernel's virtual registers are many (2.4 MB for a block of
// 512 threads of a kernel with 600 of them). A cooperative launch holds the files of every resident
// block at once, 1.3 GB for 528 such blocks, and zeroing them anew at each launch took longer than
// running the kernel: files given back are taken again as they are. A register read before its
// thread wrote it holds what an earlier block left there, as in a worker's second block.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace cudasim {

class RegisterFile {
public:
    // `words` registers of 64 bits: a file given back earlier with as many, else a new one of zeros.
    explicit RegisterFile(size_t words);
    ~RegisterFile();  // gives the file back, up to a bound on what the pool keeps
    RegisterFile(const RegisterFile&) = delete;
    RegisterFile& operator=(const RegisterFile&) = delete;

    uint64_t* data() { return words_.data(); }

private:
    std::vector<uint64_t> words_;
};

}  // namespace cudasim
