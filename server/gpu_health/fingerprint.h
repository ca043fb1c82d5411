// File: server/gpu_health/fingerprint.h
// The one line a person reads of a GPU's verdict: which subsystem is sick, how far, how sure and
// since when, and which subsystems measured normal ("HBM bandwidth: 7 cases 6.1-8.9 % slower than
// same-night peers (median 7.4 %, z up to 41.2) for 3 runs since 2026-05-01 02:00 UTC; normal:
// SM arithmetic"). The evidence comes sickest first (gpu_verdict.h); an episode that ended on the
// newest run reads "..., normal again on the newest run" and is not listed among the normal.
#ifndef WARPWATCH_SERVER_GPU_HEALTH_FINGERPRINT_H_
#define WARPWATCH_SERVER_GPU_HEALTH_FINGERPRINT_H_

#include <string>

#include "server/gpu_health/gpu_history.h"
#include "warpwatch/v1/gpu_health.pb.h"

namespace warpwatch::server::gpu_health {

// "2026-05-01 02:00 UTC".
std::string FormatTime(TimePoint at);

// From `health`'s state, reason, evidence and normal subsystems. Evidence of fewer than
// `runs_to_change` runs on a HEALTHY GPU is "watching" (it changes nothing yet).
std::string Fingerprint(const v1::GpuHealth& health, int runs_to_change);

}  // namespace warpwatch::server::gpu_health

#endif  // WARPWATCH_SERVER_GPU_HEALTH_FINGERPRINT_H_
