// File: server/store/job_wake.cc
// WakeMatches: ClaimJob's selector match (pg_store_queue.cc), on what a notification carries.
#include "common/catalog/catalog.h"
#include "server/store/store.h"

namespace warpwatch::server {

bool WakeMatches(const JobWake& wake, const Claimant& claimant) {
  if (wake.any) return true;
  // ww_glob_to_like: '*' any run, '?' one character, the rest literal and case-sensitive.
  if (!wake.gpu_model.empty() && !catalog::GlobMatch(wake.gpu_model, claimant.device_name)) {
    return false;
  }
  if (!wake.gpu_uuid.empty() && wake.gpu_uuid != claimant.device_uuid) return false;
  for (const auto& [key, value] : wake.worker_labels) {
    auto it = claimant.worker_labels.find(key);
    if (it == claimant.worker_labels.end() || it->second != value) return false;
  }
  return true;
}

}  // namespace warpwatch::server
