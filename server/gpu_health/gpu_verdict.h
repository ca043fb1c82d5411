// File: server/gpu_health/gpu_verdict.h
// The health verdict of one GPU from its history (docs/gpu_health.md): each run judged against
// its same-night peers, the hysteresis, the expiry, the evidence and fingerprint, and what people
// said (a repair restarts the evidence; an exclusion reports UNKNOWN).
#ifndef WARPWATCH_SERVER_GPU_HEALTH_GPU_VERDICT_H_
#define WARPWATCH_SERVER_GPU_HEALTH_GPU_VERDICT_H_

#include "server/gpu_health/gpu_history.h"
#include "server/gpu_health/health_policy.h"
#include "warpwatch/v1/gpu_health.pb.h"

namespace warpwatch::server::gpu_health {

// The verdict at `now`. Pure: the same history and time give the same verdict, so replicas agree
// and nothing but people's marks is stored.
v1::GpuHealth DecideGpuHealth(const GpuHistory& history, const HealthPolicy& policy, TimePoint now);

}  // namespace warpwatch::server::gpu_health

#endif  // WARPWATCH_SERVER_GPU_HEALTH_GPU_VERDICT_H_
