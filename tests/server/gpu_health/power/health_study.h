// File: tests/server/gpu_health/power/health_study.h
// The figures of docs/results/health_false_alarms.md: how often healthy virtual GPUs leave
// HEALTHY (false drains), and how soon a slowed one does, with the verdict of the server
// (DecideGpuHealth) read every night under several hysteresis lengths on the same nights.
#ifndef WARPWATCH_TESTS_SERVER_GPU_HEALTH_POWER_HEALTH_STUDY_H_
#define WARPWATCH_TESTS_SERVER_GPU_HEALTH_POWER_HEALTH_STUDY_H_

#include <cstdint>
#include <map>
#include <vector>

#include "server/gpu_health/health_policy.h"
#include "tests/server/gpu_health/power/run_pool.h"
#include "tests/server/gpu_health/power/virtual_fleet.h"

namespace warpwatch::server::gpu_health::power {

struct StudyOptions {
  FleetOptions fleet;  // its gpus, seed and fault are set per trial
  int trials = 1;      // independent fleets (fresh offsets, fresh noise history)
  // Nights simulated before any is counted: the model noise gets its pairs and the verdict's
  // window fills, so the figures are a running fleet's, not a new one's.
  int burn_in = 14;
  int nights = 60;  // counted nights per trial (false alarms)
  uint64_t seed = 1;
  // The hysteresis lengths compared (HealthPolicy::runs_to_change), all on the same nights.
  std::vector<int> runs_to_change = {1, 2, 3};
  HealthPolicy policy;  // the rest of the policy
  // Threads the trials are spread over; the figures do not depend on it (each trial has its own
  // seed, and counts add up).
  int jobs = 1;
};

// The seed of one trial's fleet: a mix of the study's seed, the fleet size and the trial.
uint64_t TrialSeed(uint64_t seed, int gpus, int trial);

// What one hysteresis length did to healthy GPUs.
struct PolicyTally {
  int runs_to_change = 0;
  int64_t drains = 0;  // entries into DEGRADED or FAILING from HEALTHY (what drains a node)
  int64_t degraded_entries = 0;    // entries into DEGRADED (from HEALTHY)
  int64_t failing_entries = 0;     // entries into FAILING (from any state)
  int64_t not_healthy_nights = 0;  // GPU-nights DEGRADED or FAILING
  int64_t unknown_nights = 0;
  std::map<v1::GpuSubsystem, int64_t> drains_by_subsystem;  // the verdict's first evidence
};

struct FalseAlarmFigures {
  int gpus = 0;
  int trials = 0;
  int nights = 0;
  int burn_in = 0;
  int64_t gpu_nights = 0;  // counted
  int64_t judged_runs = 0;
  int64_t watching_runs = 0;    // judged with some subsystem sick (JudgeRun)
  int64_t failing_runs = 0;     // judged failing
  int64_t slower_outliers = 0;  // slower outlier cases over the counted runs
  std::map<v1::GpuSubsystem, int64_t> sick_runs_by_subsystem;
  std::vector<PolicyTally> policies;  // as options.runs_to_change
};

// Healthy fleets of `gpus` GPUs (options.fleet.fault is ignored).
FalseAlarmFigures MeasureFalseAlarms(const RunPool& pool, int gpus, const StudyOptions& options);

// How soon one GPU with `fault` (its gpus and from_night are set here: GPU 0 from the first
// counted night) leaves HEALTHY.
struct PowerFigures {
  int gpus = 0;
  int trials = 0;
  std::vector<int> after_nights;  // faulty nights before the verdict is read
  // Per hysteresis length (options.runs_to_change): the trials in which the GPU was HEALTHY on
  // the night before its fault (the others are left out of that length's figures: a false
  // verdict of the burn-in, whose first nights have a young noise model, is no detection).
  std::vector<int64_t> eligible;
  // Per hysteresis length, per after_nights, among the eligible trials: the GPU DEGRADED or
  // FAILING, FAILING, and its evidence naming the fault's subsystem.
  std::vector<std::vector<int64_t>> not_healthy;
  std::vector<std::vector<int64_t>> failing;
  std::vector<std::vector<int64_t>> named;
  // The same trials by the subsystem of the verdict's first evidence (the fingerprint's lead).
  std::vector<std::vector<std::map<v1::GpuSubsystem, int64_t>>> first_named;
};

PowerFigures MeasurePower(const RunPool& pool, int gpus, InjectedFault fault,
                          const std::vector<int>& after_nights, const StudyOptions& options);

}  // namespace warpwatch::server::gpu_health::power

#endif  // WARPWATCH_TESTS_SERVER_GPU_HEALTH_POWER_HEALTH_STUDY_H_
