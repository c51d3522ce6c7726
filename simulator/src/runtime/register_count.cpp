#include "runtime/register_count.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <string>
#include <utility>

namespace cudasim {
namespace {

constexpr int kFallbackRegisters = 32;

// Kernel name -> registers, from `ptxas -arch=sm_90 --verbose`.
std::map<std::string, int> run_ptxas(const std::string& ptx)
{
    std::map<std::string, int> result;
    const char* ptxas = std::getenv("CUDASIM_PTXAS");
    std::string tool = ptxas ? ptxas : CUDASIM_PTXAS;
    char path[] = "/tmp/cudasim-ptx-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        return result;
    close(fd);
    std::ofstream(path) << ptx;
    std::string command = "'" + tool + "' -arch=sm_90 --verbose -o /dev/null '" + path + "' 2>&1";
    if (FILE* pipe = popen(command.c_str(), "r")) {
        // ptxas prints "Compiling entry function '<name>' for 'sm_90'" and,
        // a few lines later, "... Used <N> registers, ...".
        std::string current;
        char line[1024];
        while (std::fgets(line, sizeof line, pipe)) {
            const char* entry = std::strstr(line, "Compiling entry function '");
            const char* used = std::strstr(line, "Used ");
            if (entry) {
                entry += std::strlen("Compiling entry function '");
                const char* end = std::strchr(entry, '\'');
                current.assign(entry, end ? static_cast<size_t>(end - entry) : std::strlen(entry));
            } else if (used && !current.empty() && std::strstr(used, " registers")) {
                result[current] = std::atoi(used + std::strlen("Used "));
            }
        }
        pclose(pipe);
    }
    std::remove(path);
    return result;
}

}  // namespace

int kernel_registers(FunctionEntry& function, const ptx::Kernel& kernel)
{
    if (function.registers >= 0)
        return function.registers;
    static std::map<const FatBinary*, std::map<std::string, int>> cache;
    auto it = cache.find(function.binary);
    if (it == cache.end())
        it = cache.emplace(function.binary, run_ptxas(function.binary->ptx)).first;
    auto reg = it->second.find(kernel.name);
    // PTX's virtual registers say little about the real allocation, so
    // without ptxas the count falls back to a typical 32.
    function.registers = reg != it->second.end() ? reg->second : kFallbackRegisters;
    return function.registers;
}

}  // namespace cudasim
