// Defaults of the measurement settings.
#include "worker/engine/engine_settings.h"

#include <algorithm>

namespace warpwatch::worker {

EngineSettings ResolveSettings(const v1::MeasurementSettings& s) {
  EngineSettings e;
  if (s.min_samples() > 0) e.stop.min_samples = s.min_samples();
  if (s.max_samples() > 0) e.stop.max_samples = s.max_samples();
  if (s.target_noise() > 0) e.stop.target_noise = s.target_noise();
  if (s.min_gpu_time_seconds() > 0) e.stop.min_gpu_time_seconds = s.min_gpu_time_seconds();
  if (s.point_timeout_seconds() > 0) e.stop.timeout_seconds = s.point_timeout_seconds();
  e.stop.max_samples = std::max(e.stop.max_samples, e.stop.min_samples);
  if (s.has_l2_flush()) e.l2_flush = s.l2_flush();
  e.collect_counters = s.collect_counters();
  if (s.sample_groups() > 0) e.sample_groups = std::min(s.sample_groups(), kMaxSampleGroups);
  return e;
}

}  // namespace warpwatch::worker
