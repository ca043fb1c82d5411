// Telemetry from the clock probe.
#include "worker/device/probe_telemetry.h"

#include <fstream>
#include <regex>

#include "kernels/core/cuda_check.h"
#include "worker/device/clock_probe.h"

namespace warpwatch::worker {
namespace {

constexpr uint64_t kProbeSpinNs = 200000;  // 0.2 ms: ~0.1 % resolution at a 1 us timer tick

}  // namespace

StatusOr<std::unique_ptr<Telemetry>> ProbeTelemetry::Create(int max_sm_clock_mhz,
                                                            std::string driver_version) {
  auto t = std::unique_ptr<ProbeTelemetry>(new ProbeTelemetry());
  t->max_sm_clock_mhz_ = max_sm_clock_mhz;
  t->driver_version_ = std::move(driver_version);
  CUDA_RETURN_IF_ERROR(cudaStreamCreateWithFlags(&t->stream_, cudaStreamNonBlocking));
  CUDA_RETURN_IF_ERROR(cudaMalloc(reinterpret_cast<void**>(&t->d_scratch_), 2 * sizeof(unsigned long long)));
  return std::unique_ptr<Telemetry>(std::move(t));
}

ProbeTelemetry::~ProbeTelemetry() {
  if (d_scratch_ != nullptr) CUDA_CHECK_NOEXCEPT(cudaFree(d_scratch_));
  if (stream_ != nullptr) CUDA_CHECK_NOEXCEPT(cudaStreamDestroy(stream_));
}

ClockReading ProbeTelemetry::ReadClock() {
  ClockReading r;
  StatusOr<double> mhz = ProbeSmClockMhz(stream_, kProbeSpinNs, d_scratch_);
  if (mhz.ok()) r.sm_clock_mhz = *mhz;
  return r;
}

DeviceConditions ProbeTelemetry::ReadConditions() {
  DeviceConditions c;
  c.sm_clock_mhz = ReadClock().sm_clock_mhz;
  return c;
}

std::string ReadProcDriverVersion() {
  std::ifstream in("/proc/driver/nvidia/version");
  std::string line;
  if (!std::getline(in, line)) return "";
  std::smatch m;
  static const std::regex kVersion(R"(Module.*?\s([0-9]+(\.[0-9]+)+))");
  return std::regex_search(line, m, kVersion) ? m[1].str() : "";
}

}  // namespace warpwatch::worker
