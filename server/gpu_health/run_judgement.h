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

// Why a run is not judged.
enum class Unjudged {
  kNo,           // it is judged
  kTooFewPeers,  // fewer than min_night_devices GPUs of its model in its night
  kNotCompared,  // the fleet view compared none of its cases (RunSummary::fleet_judged_cases)
};

struct RunJudgement {
  bool judged = false;
  Unjudged unjudged = Unjudged::kNo;
  RunLevel level = RunLevel::kClean;
  std::vector<SubsystemSickness> sick;  // by subsystem number
  // Subsystems the run was compared on (the fleet view's families, the clocks when known) and
  // those it shows sick, by number.
  std::vector<v1::GpuSubsystem> measured;
};

// Judges `run` under `policy`: judged when its night has min_night_devices GPUs and either the
// fleet view compared some of its cases or its clocks are sick against the night (a throttling
// GPU's points are left out of the fleet view, so its clocks are the only evidence); and, with
// any number of peers, when a pair of its GPU lost links or a node run found one slower than the
// node's other pairs (RunSummary::link_losses, slow_pairs: the interconnect is sick, failing when
// a pair lost failing_change of its NVLinks, or all of them, or ran that much slower).
// Pure.
RunJudgement JudgeRun(const RunSummary& run, const HealthPolicy& policy);

}  // namespace warpwatch::server::gpu_health

#endif  // WARPWATCH_SERVER_GPU_HEALTH_RUN_JUDGEMENT_H_
