#include "runtime/timing_model.hpp"

#include <algorithm>

#include "runtime/device_model.hpp"

namespace cudasim {
namespace {

// A modelled H100 SXM.
constexpr double kSms = device_model::kMultiprocessors;
constexpr double kSchedulersPerSm = 4;       // one warp instruction each per cycle
constexpr double kClockHz = 1.755e9;
constexpr double kDramBytesPerSecond = 3.35e12;
constexpr double kLaunchOverheadMs = 0.002;  // 2 us
constexpr double kPcieBytesPerSecond = 25e9;
constexpr double kCopyLatencyMs = 0.005;

}  // namespace

double modelKernelMilliseconds(const Counts& c, uint64_t blocks) {
  double sms = std::min<double>(kSms, static_cast<double>(std::max<uint64_t>(blocks, 1)));
  double issueSeconds = static_cast<double>(c.warpInstructions) / (sms * kSchedulersPerSm * kClockHz);
  double bytes = 32.0 * static_cast<double>(c.globalLoadSectors + c.globalStoreSectors);
  double memorySeconds = bytes / kDramBytesPerSecond;
  return kLaunchOverheadMs + 1e3 * std::max(issueSeconds, memorySeconds);
}

double modelCopyMilliseconds(uint64_t bytes, cudaMemcpyKind kind) {
  double b = static_cast<double>(bytes);
  if (kind == cudaMemcpyDeviceToDevice) return kCopyLatencyMs + 1e3 * 2 * b / kDramBytesPerSecond;
  if (kind == cudaMemcpyHostToHost) return 0;
  return kCopyLatencyMs + 1e3 * b / kPcieBytesPerSecond;
}

}  // namespace cudasim
