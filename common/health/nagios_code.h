// File: common/health/nagios_code.h
// A GPU health verdict as a Nagios plugin status: the one number both `warpwatch health --check`
// exits with and the warpwatch_gpu_health gauge exports, so the two can never disagree.
#ifndef WARPWATCH_COMMON_HEALTH_NAGIOS_CODE_H_
#define WARPWATCH_COMMON_HEALTH_NAGIOS_CODE_H_

#include "warpwatch/v1/gpu_health.pb.h"

namespace warpwatch {

// 0 healthy (OK), 1 degraded (WARNING), 2 failing (CRITICAL), 3 anything else (UNKNOWN).
int NagiosCode(v1::GpuHealthState state);

}  // namespace warpwatch

#endif  // WARPWATCH_COMMON_HEALTH_NAGIOS_CODE_H_
