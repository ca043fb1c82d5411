// File: server/gpu_health/fleet_verdicts.h
// The verdicts of every GPU (or one) at a time, read through a GpuHealthStore: what FleetService
// answers and what the warpwatch_gpu_health gauge exports.
#ifndef WARPWATCH_SERVER_GPU_HEALTH_FLEET_VERDICTS_H_
#define WARPWATCH_SERVER_GPU_HEALTH_FLEET_VERDICTS_H_

#include <string>
#include <vector>

#include "common/status/status.h"
#include "server/gpu_health/gpu_health_store.h"
#include "server/gpu_health/health_policy.h"
#include "warpwatch/v1/gpu_health.pb.h"

namespace warpwatch::server::gpu_health {

// The verdicts at `now` of `device_uuid` ("" = every known GPU), by hostname, then GPU index,
// then UUID. The store's errors as they are.
StatusOr<std::vector<v1::GpuHealth>> FleetVerdicts(GpuHealthStore& store,
                                                   const HealthPolicy& policy,
                                                   const std::string& device_uuid, TimePoint now);

}  // namespace warpwatch::server::gpu_health

#endif  // WARPWATCH_SERVER_GPU_HEALTH_FLEET_VERDICTS_H_
