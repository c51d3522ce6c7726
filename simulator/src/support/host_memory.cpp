#include "support/host_memory.hpp"

#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>

namespace cudasim {
namespace {

// A number read from a one-line file (cgroup v2's memory.max and memory.current); nullopt for
// "max", a missing file or anything else.
std::optional<uint64_t> read_number(const char* path)
{
    std::ifstream in(path);
    uint64_t value = 0;
    if (in >> value)
        return value;
    return std::nullopt;
}

std::optional<uint64_t> mem_available()
{
    std::ifstream in("/proc/meminfo");
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("MemAvailable:", 0) == 0) {
            std::istringstream fields(line.substr(13));
            uint64_t kib = 0;
            if (fields >> kib)
                return kib * 1024;
        }
    }
    return std::nullopt;
}

// The process's own cgroup (v2) under /sys/fs/cgroup, as /proc/self/cgroup names it ("0::/path").
std::optional<uint64_t> cgroup_room()
{
    std::ifstream in("/proc/self/cgroup");
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("0::", 0) != 0)
            continue;
        const std::string folder = "/sys/fs/cgroup" + line.substr(3);
        const auto limit = read_number((folder + "/memory.max").c_str());
        const auto used = read_number((folder + "/memory.current").c_str());
        if (limit && used)
            return *limit > *used ? *limit - *used : 0;
    }
    return std::nullopt;
}

std::optional<uint64_t> address_space_room()
{
    rlimit limit{};
    if (getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY)
        return std::nullopt;
    // What the process maps already counts against the limit.
    std::ifstream in("/proc/self/statm");
    uint64_t pages = 0;
    if (!(in >> pages))
        return uint64_t(limit.rlim_cur);
    const uint64_t mapped = pages * uint64_t(sysconf(_SC_PAGESIZE));
    return uint64_t(limit.rlim_cur) > mapped ? uint64_t(limit.rlim_cur) - mapped : 0;
}

}  // namespace

std::optional<uint64_t> host_available_bytes()
{
    std::optional<uint64_t> least;
    for (const auto& room : {mem_available(), cgroup_room(), address_space_room()})
        if (room)
            least = least ? std::min(*least, *room) : *room;
    return least;
}

void* map_zero_pages(uint64_t bytes)
{
    void* pages = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (pages == MAP_FAILED)
        return nullptr;
    // Advice only: where it is refused or unsupported, the pages are 4 KiB.
    madvise(pages, bytes, MADV_HUGEPAGE);
    return pages;
}

void unmap_pages(void* pages, uint64_t bytes)
{
    munmap(pages, bytes);
}

}  // namespace cudasim
