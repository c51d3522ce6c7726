#include "runtime/register_count.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <regex>

namespace cudasim {
namespace {

// Kernel name -> registers, from `ptxas -arch=sm_90 --verbose`.
std::map<std::string, int> runPtxas(const std::string& ptx) {
  std::map<std::string, int> result;
  const char* ptxas = std::getenv("CUDASIM_PTXAS");
  std::string tool = ptxas ? ptxas : CUDASIM_PTXAS;
  char path[] = "/tmp/cudasim-ptx-XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0) return result;
  close(fd);
  std::ofstream(path) << ptx;
  std::string command = "'" + tool + "' -arch=sm_90 --verbose -o /dev/null '" + path + "' 2>&1";
  if (FILE* pipe = popen(command.c_str(), "r")) {
    static const std::regex entry(R"(Compiling entry function '([^']+)')");
    static const std::regex used(R"(Used (\d+) registers)");
    std::string current;
    char line[1024];
    while (std::fgets(line, sizeof line, pipe)) {
      std::cmatch m;
      if (std::regex_search(line, m, entry)) current = m[1];
      else if (std::regex_search(line, m, used) && !current.empty()) result[current] = std::atoi(m[1].str().c_str());
    }
    pclose(pipe);
  }
  std::remove(path);
  return result;
}

}  // namespace

int kernelRegisters(FunctionEntry& function, const ptx::Kernel& kernel) {
  if (function.registers >= 0) return function.registers;
  static std::map<const FatBinary*, std::map<std::string, int>> cache;
  auto it = cache.find(function.binary);
  if (it == cache.end()) it = cache.emplace(function.binary, runPtxas(function.binary->ptx)).first;
  auto reg = it->second.find(kernel.name);
  function.registers = reg != it->second.end()
                           ? reg->second
                           : static_cast<int>(std::min<uint32_t>(255, kernel.ptxRegisterCount));
  return function.registers;
}

}  // namespace cudasim
