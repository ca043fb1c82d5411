// Telemetry without NVML: the SM clock from the clock probe kernel; no temperature, power or
// throttle reasons.
#ifndef WARPWATCH_WORKER_DEVICE_PROBE_TELEMETRY_H_
#define WARPWATCH_WORKER_DEVICE_PROBE_TELEMETRY_H_

#include <cuda_runtime_api.h>

#include <memory>

#include "common/status/status.h"
#include "worker/device/telemetry.h"

namespace warpwatch::worker {

class ProbeTelemetry : public Telemetry {
 public:
  // On the current device; allocates its scratch buffer and stream. `driver_version` as found
  // elsewhere (/proc/driver/nvidia/version), may be empty.
  static StatusOr<std::unique_ptr<Telemetry>> Create(int max_sm_clock_mhz,
                                                     std::string driver_version);
  ~ProbeTelemetry() override;

  std::string source() const override { return "probe"; }
  ClockReading ReadClock() override;
  DeviceConditions ReadConditions() override;
  int MaxSmClockMhz() override { return max_sm_clock_mhz_; }
  int MaxMemoryClockMhz() override { return 0; }
  std::string DriverVersion() override { return driver_version_; }

 private:
  ProbeTelemetry() = default;

  cudaStream_t stream_ = nullptr;
  unsigned long long* d_scratch_ = nullptr;
  int max_sm_clock_mhz_ = 0;
  std::string driver_version_;
};

// The kernel module's version from /proc/driver/nvidia/version ("580.65.06"); empty if absent.
std::string ReadProcDriverVersion();

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_DEVICE_PROBE_TELEMETRY_H_
