// File: server/gpu_health/fleet_verdicts.cc
#include "server/gpu_health/fleet_verdicts.h"

#include <algorithm>

#include "server/gpu_health/gpu_verdict.h"

namespace warpwatch::server::gpu_health {

StatusOr<std::vector<v1::GpuHealth>> FleetVerdicts(GpuHealthStore& store,
                                                   const HealthPolicy& policy,
                                                   const std::string& device_uuid, TimePoint now) {
  HistoryQuery query;
  query.device_uuid = device_uuid;
  query.since = now - policy.window;
  query.max_runs = policy.window_runs;
  ASSIGN_OR_RETURN(std::vector<GpuHistory> histories, store.ReadHistories(query));
  std::vector<v1::GpuHealth> out;
  out.reserve(histories.size());
  for (const GpuHistory& h : histories) out.push_back(DecideGpuHealth(h, policy, now));
  std::sort(out.begin(), out.end(), [](const v1::GpuHealth& a, const v1::GpuHealth& b) {
    if (a.hostname() != b.hostname()) return a.hostname() < b.hostname();
    if (a.gpu_index() != b.gpu_index()) return a.gpu_index() < b.gpu_index();
    return a.device_uuid() < b.device_uuid();
  });
  return out;
}

}  // namespace warpwatch::server::gpu_health
