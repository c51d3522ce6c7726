#include "ptx_runner.hpp"

#include <cstring>

#include "exec/memory/device_memory.hpp"
#include "ptx/parser.hpp"

namespace cudasim::test {

ptx::Module parse_ptx(const std::string& body)
{
    std::string text = ".version 9.0\n.target sm_75\n.address_size 64\n" + body;
    return ptx::parse_module(text, [](const std::string& name, uint64_t size, uint32_t) {
        return static_cast<uint8_t*>(DeviceMemory::instance().allocate(size, true, name));
    });
}

LaunchResult run_kernel(const ptx::Kernel& kernel, Dim3 grid, Dim3 block, const std::vector<uint64_t>& args,
                        uint32_t dynamic_smem, uint64_t instruction_limit, bool race_check)
{
    std::vector<uint8_t> params(kernel.param_bytes);
    for (size_t i = 0; i < kernel.params.size() && i < args.size(); ++i)
        std::memcpy(params.data() + kernel.params[i].offset, &args[i], kernel.params[i].size);
    LaunchContext launch;
    launch.kernel = &kernel;
    launch.grid = grid;
    launch.block = block;
    launch.dynamic_smem = dynamic_smem;
    launch.params = params.data();
    launch.instruction_limit = instruction_limit;
    launch.race_check = race_check;
    return execute_kernel(launch);
}

DeviceBuffer::DeviceBuffer(size_t bytes) : data(DeviceMemory::instance().allocate(bytes))
{
}
DeviceBuffer::~DeviceBuffer()
{
    DeviceMemory::instance().release(data);
}

}  // namespace cudasim::test
