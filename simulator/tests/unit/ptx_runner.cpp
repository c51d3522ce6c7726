#include "ptx_runner.hpp"

#include <cstring>

#include "exec/memory/device_memory.hpp"
#include "ptx/parser.hpp"

namespace cudasim::test {

ptx::Module parsePtx(const std::string& body)
{
    std::string text = ".version 9.0\n.target sm_75\n.address_size 64\n" + body;
    return ptx::parseModule(text, [](const std::string& name, uint64_t size, uint32_t) {
        return static_cast<uint8_t*>(DeviceMemory::instance().allocate(size, true, name));
    });
}

LaunchResult runKernel(const ptx::Kernel& kernel, Dim3 grid, Dim3 block, const std::vector<uint64_t>& args,
                       uint32_t dynamicSmem, uint64_t instructionLimit, bool raceCheck)
{
    std::vector<uint8_t> params(kernel.paramBytes);
    for (size_t i = 0; i < kernel.params.size() && i < args.size(); ++i)
        std::memcpy(params.data() + kernel.params[i].offset, &args[i], kernel.params[i].size);
    LaunchContext launch;
    launch.kernel = &kernel;
    launch.grid = grid;
    launch.block = block;
    launch.dynamicSmem = dynamicSmem;
    launch.params = params.data();
    launch.instructionLimit = instructionLimit;
    launch.raceCheck = raceCheck;
    return executeKernel(launch);
}

DeviceBuffer::DeviceBuffer(size_t bytes) : data(DeviceMemory::instance().allocate(bytes))
{
}
DeviceBuffer::~DeviceBuffer()
{
    DeviceMemory::instance().release(data);
}

}  // namespace cudasim::test
