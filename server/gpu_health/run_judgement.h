// File: server/gpu_health/run_judgement.h
// One run of a GPU judged against its same-night peers: which subsystems it shows sick, and how
// badly. The hysteresis (health_state_machine.h) turns a sequence of these into a state.
#ifndef WARPWATCH_SERVER_GPU_HEALTH_RUN_JUDGEMENT_H_
#define WARPWATCH_SERVER_GPU_HEALTH_RUN_JUDGEMENT_H_

#include <vector>

#include "server/gpu_health/gpu_history.h"
#include "server/gpu_health/health_policy.h"

namespace warpwatch::server::gpu_health {

enum class RunLevel { kClean, kDegraded, kFailing };

struct SubsystemSickness {
  v1::GpuSubsystem subsystem = v1::GPU_SUBSYSTEM_UNSPECIFIED;
  std::vector<CaseOutlier> cases;  // its slower outlier cases (none for clocks)
  double change = 0;               // median change of `cases`, or the clock drop
  double min_change = 0;
  double max_change = 0;
  double max_z = 0;
  bool failing = false;     // change >= policy.failing_change
  double sm_clock_mhz = 0;  // clocks only
  double night_sm_clock_mhz = 0;
};

struct RunJudgement {
  bool judged = false;  // false: fewer than min_night_devices GPUs in its night
  RunLevel level = RunLevel::kClean;
  std::vector<SubsystemSickness> sick;     // by subsystem number
  std::vector<v1::GpuSubsystem> measured;  // subsystems its families stress, by number
};

// Judges `run` under `policy`. Pure.
RunJudgement JudgeRun(const RunSummary& run, const HealthPolicy& policy);

}  // namespace warpwatch::server::gpu_health

#endif  // WARPWATCH_SERVER_GPU_HEALTH_RUN_JUDGEMENT_H_
