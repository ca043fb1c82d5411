// File: common/health/nagios_code.cc
#include "common/health/nagios_code.h"

namespace warpwatch {

int NagiosCode(v1::GpuHealthState state) {
  switch (state) {
    case v1::GPU_HEALTH_STATE_HEALTHY:
      return 0;
    case v1::GPU_HEALTH_STATE_DEGRADED:
      return 1;
    case v1::GPU_HEALTH_STATE_FAILING:
      return 2;
    default:
      return 3;
  }
}

}  // namespace warpwatch
