// The SM clock a GPU is set to run at under load, which throttling is judged against: the
// operator's application clocks when set, else the maximum boost clock. CUDA-free.
#ifndef WARPWATCH_WORKER_DEVICE_CLOCK_SETTING_H_
#define WARPWATCH_WORKER_DEVICE_CLOCK_SETTING_H_

#include <string>

namespace warpwatch::worker {

enum class ClockPolicy {
  kUnknown,       // nothing known: samples are judged against the fastest of their point
  kBoost,         // free to boost: the maximum SM clock
  kApplications,  // application clocks set away from their default (nvidia-smi -ac)
};

// "unknown", "boost", "applications" (RunEnvironment.sm_clock_policy).
std::string ClockPolicyName(ClockPolicy policy);

struct ClockSetting {
  double sm_clock_mhz = 0;  // 0 = unknown
  ClockPolicy policy = ClockPolicy::kUnknown;
};

// SM clocks as NVML reports them; 0 = unknown.
struct SmClockLimits {
  double max_mhz = 0;                   // nvmlDeviceGetMaxClockInfo
  double applications_mhz = 0;          // nvmlDeviceGetApplicationsClock
  double default_applications_mhz = 0;  // nvmlDeviceGetDefaultApplicationsClock
};

// Application clocks that differ from their default were set by the operator: the GPU is set to
// run at them. Otherwise (default or unknown application clocks) the GPU boosts up to its maximum.
// Locked clocks (nvidia-smi -lgc) are not readable through NVML; the driver reports them per
// sample as a clocks-event reason (see worker/stats/throttle.h), which is where they are seen.
ClockSetting ResolveClockSetting(const SmClockLimits& limits);

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_DEVICE_CLOCK_SETTING_H_
