// The engine's settings with defaults applied to a job's MeasurementSettings. CUDA-free.
#ifndef WARPWATCH_WORKER_ENGINE_ENGINE_SETTINGS_H_
#define WARPWATCH_WORKER_ENGINE_ENGINE_SETTINGS_H_

#include "warpwatch/v1/job.pb.h"
#include "worker/stats/stopping_rule.h"

namespace warpwatch::worker {

struct EngineSettings {
  StopSettings stop;             // zero fields of the job replaced by the defaults below
  bool l2_flush = true;          // cold samples unless the case asks for hot ones
  bool collect_counters = false;
  int warmup_runs = 2;
  int sample_groups = 1;         // fresh allocations per group (MeasurementSettings.sample_groups)
  bool kernel_durations = true;  // the CUPTI duration pass after the samples
  int duration_samples = 20;     // samples of that pass
};

inline constexpr int kMaxSampleGroups = 16;

// Defaults (nvbench stdrel with the nightly budget of worker/stats/stopping_rule.h): min_samples
// 10, max_samples 2000, target_noise 0.005 (relative standard deviation), min GPU time 0.1 s,
// point timeout 15 s, L2 flush on, one sample group (at most kMaxSampleGroups). max_samples is
// raised to min_samples when below it.
EngineSettings ResolveSettings(const v1::MeasurementSettings& settings);

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_ENGINE_ENGINE_SETTINGS_H_
