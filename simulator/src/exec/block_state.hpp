// Memory and bookkeeping of one thread block while it runs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "exec/launch_context.hpp"

namespace cudasim {

struct BlockState {
  Dim3 ctaid;
  std::vector<uint8_t> shared;  // static + dynamic shared memory
  std::vector<uint8_t> local;   // localBytes per thread, thread-major
  uint32_t localBytes = 0;
  uint64_t clock = 0;           // warp instructions issued by this block
  std::string printfOutput;     // flushed in block order after the launch
};

}  // namespace cudasim
