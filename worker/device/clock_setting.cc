// The clock a GPU is set to run at.
#include "worker/device/clock_setting.h"

namespace warpwatch::worker {

std::string ClockPolicyName(ClockPolicy policy) {
  switch (policy) {
    case ClockPolicy::kBoost:
      return "boost";
    case ClockPolicy::kApplications:
      return "applications";
    case ClockPolicy::kUnknown:
      break;
  }
  return "unknown";
}

ClockSetting ResolveClockSetting(const SmClockLimits& limits) {
  ClockSetting s;
  const bool operator_set = limits.applications_mhz > 0 && limits.default_applications_mhz > 0 &&
                            limits.applications_mhz != limits.default_applications_mhz;
  if (operator_set) {
    s.sm_clock_mhz = limits.applications_mhz;
    s.policy = ClockPolicy::kApplications;
  } else if (limits.max_mhz > 0) {
    s.sm_clock_mhz = limits.max_mhz;
    s.policy = ClockPolicy::kBoost;
  }
  return s;
}

}  // namespace warpwatch::worker
