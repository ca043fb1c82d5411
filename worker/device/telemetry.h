// Telemetry: clocks, throttle reasons, temperature and power of one GPU, behind an interface so the
// engine runs with NVML (NvmlTelemetry) or without it (ProbeTelemetry, SM clock only).
#ifndef WARPWATCH_WORKER_DEVICE_TELEMETRY_H_
#define WARPWATCH_WORKER_DEVICE_TELEMETRY_H_

#include <cstdint>
#include <string>

#include "worker/device/clock_setting.h"

namespace warpwatch::worker {

// One reading taken right after a sample.
struct ClockReading {
  double sm_clock_mhz = 0;        // 0 = unknown
  uint64_t throttle_reasons = 0;  // NVML clocks-event reason bits; 0 when none or unknown
};

// Conditions at the start or end of a run. Zero fields are unknown.
struct DeviceConditions {
  double sm_clock_mhz = 0;
  double memory_clock_mhz = 0;
  double temperature_c = 0;
  double power_w = 0;
};

// Not thread-safe; one per device, used by one thread.
class Telemetry {
 public:
  virtual ~Telemetry() = default;
  virtual std::string source() const = 0;          // "nvml" or "probe" (RunEnvironment.clock_source)
  virtual ClockReading ReadClock() = 0;
  virtual DeviceConditions ReadConditions() = 0;
  virtual int MaxSmClockMhz() = 0;                 // 0 = unknown
  // The SM clock the GPU is set to run at now (read per point: an operator may change it).
  // Default: free to boost up to MaxSmClockMhz().
  virtual ClockSetting ReadClockSetting() {
    ClockSetting s;
    s.sm_clock_mhz = MaxSmClockMhz();
    if (s.sm_clock_mhz > 0) s.policy = ClockPolicy::kBoost;
    return s;
  }
  virtual int MaxMemoryClockMhz() = 0;             // 0 = unknown
  virtual std::string DriverVersion() = 0;         // "580.65.06"; empty = unknown
};

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_DEVICE_TELEMETRY_H_
