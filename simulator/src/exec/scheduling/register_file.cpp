#include "exec/scheduling/register_file.hpp"

#include <mutex>
#include <utility>

namespace cudasim {
namespace {

// At most this much is kept between launches: a cooperative launch's files, not a program's peak.
constexpr size_t kMostKeptBytes = size_t{2} << 30;

struct Pool {
    std::mutex mutex;
    std::vector<std::vector<uint64_t>> files;
    size_t bytes = 0;
};

Pool& pool()
{
    static Pool& kept = *new Pool;  // never destroyed: runners on worker threads may outlive static objects
    return kept;
}

}  // namespace

RegisterFile::RegisterFile(size_t words)
{
    {
        Pool& p = pool();
        std::lock_guard lock(p.mutex);
        for (auto it = p.files.begin(); it != p.files.end(); ++it) {
            if (it->size() == words) {
                words_ = std::move(*it);
                p.files.erase(it);
                p.bytes -= words * sizeof(uint64_t);
                return;
            }
        }
    }
    words_.assign(words, 0);
}

RegisterFile::~RegisterFile()
{
    const size_t bytes = words_.size() * sizeof(uint64_t);
    if (bytes == 0)
        return;
    Pool& p = pool();
    std::lock_guard lock(p.mutex);
    if (p.bytes + bytes > kMostKeptBytes)
        return;
    p.bytes += bytes;
    p.files.push_back(std::move(words_));
}

}  // namespace cudasim
