// File: tests/server/gpu_health/power/virtual_fleet.h
// A virtual fleet of one GPU model, night by night, through the server's own pure functions: the
// fleet view of each case (detect::FindFleetOutliers) as the analysis runs it while the night's
// runs arrive, the model noise that floors it (detect::SuccessiveDifferenceNoise over earlier
// nights), and each GPU's RunSummary appended to its GpuHistory, ready for DecideGpuHealth.
#ifndef WARPWATCH_TESTS_SERVER_GPU_HEALTH_POWER_VIRTUAL_FLEET_H_
#define WARPWATCH_TESTS_SERVER_GPU_HEALTH_POWER_VIRTUAL_FLEET_H_

#include <cstdint>
#include <random>
#include <vector>

#include "server/detect/detection_config.h"
#include "server/detect/fleet_outliers.h"
#include "server/detect/run_point.h"
#include "server/gpu_health/gpu_history.h"
#include "tests/server/gpu_health/power/run_pool.h"
#include "warpwatch/v1/gpu_health.pb.h"

namespace warpwatch::server::gpu_health::power {

// A slowdown put into some GPUs' runs on purpose, from one night on.
struct InjectedFault {
  std::vector<int> gpus;  // virtual GPUs it hits; empty: none
  int from_night = 0;
  // The cases of the families of this subsystem (SubsystemOfFamily) are slower by `slowdown`.
  v1::GpuSubsystem subsystem = v1::GPU_SUBSYSTEM_UNSPECIFIED;
  double slowdown = 0;
  // Real runs of a faulty GPU (ResidualsAgainstClean): when not empty, a faulty GPU's nights
  // from `from_night` take these residuals in turn instead of a clean run's.
  std::vector<PoolRun> runs;
};

struct FleetOptions {
  int gpus = 8;
  uint64_t seed = 1;
  // The GPUs' offsets are drawn as offset_scale x sum_k N(0, 1) x offset_basis[k] / sqrt(K - 1):
  // continuous, with the physical GPUs' covariance over cases. 0: identical GPUs.
  double offset_scale = 1;
  // true: the server's order. Each run's analysis judges the night's runs finished so far (its
  // own included, in a random finish order) and an outlier found by any of those views stays
  // reported (analysis/run_analyzer.cc: the first view that sees it reports it, none retracts
  // it). false: one view of the complete night.
  bool growing_night = true;
  // With growing_night: judging starts once a share judge_from of the night's runs is in (a
  // schedule run's night, whose size is known up front). The views of the first
  // FirstJudgingView(judge_from, gpus) - 1 arrivals judge nothing; from then on every arrival's
  // view judges all runs in so far, as today. 0: today's rule (every view of >= min_devices runs
  // judges). 1 is one view of the complete night, the same as growing_night false.
  double judge_from = 0;
  detect::FleetConfig fleet;             // the analysis' default
  detect::DetectionConfig noise_config;  // the noise model's quantile (LoadModelNoise's default)
  // The newest good points of a case over every GPU that the model noise reads
  // (analysis::AnalysisConfig::model_noise_points).
  size_t model_noise_points = 2000;
  int window_runs = 14;  // runs kept per GpuHistory (HealthPolicy::window_runs)
  InjectedFault fault;
};

// Not thread-safe. `pool` must outlive the fleet.
class VirtualFleet {
 public:
  // Draws every GPU's offsets. Preconditions: options.gpus >= 1, pool has runs.
  VirtualFleet(const RunPool& pool, FleetOptions options);

  // Simulates the next night: each GPU draws one whole real run (or its fault run), the model
  // noise of each case comes from the earlier nights' points, the fleet view judges the night,
  // and each GPU's RunSummary is appended to its history (oldest dropped beyond window_runs).
  void RunNight();

  int nights() const { return nights_; }
  // When night `night` (0-based) started: 02:00 UTC on consecutive days.
  TimePoint NightStart(int night) const;
  const std::vector<GpuHistory>& histories() const { return histories_; }
  // Per GPU: its offset per case (pool case order).
  const std::vector<std::vector<double>>& offsets() const { return offsets_; }
  // The last night, per GPU: the pool run drawn (an index into pool.runs; -1 - i for the fault's
  // run i), and its median per case (NaN: no good point).
  const std::vector<int>& drawn_runs() const { return drawn_; }
  const std::vector<std::vector<double>>& medians() const { return medians_; }
  // The last night's model noise per case (NaN: no pair of earlier points yet).
  const std::vector<double>& case_noise() const { return noise_; }

 private:
  void DrawNight();
  void JudgeNight();

  const RunPool& pool_;
  const FleetOptions options_;
  std::mt19937_64 rng_;
  int nights_ = 0;
  std::vector<std::string> uuids_;
  std::vector<std::vector<double>> offsets_;
  std::vector<bool> faulty_;
  std::vector<bool> faulty_case_;
  std::vector<int> drawn_;
  std::vector<std::vector<double>> medians_;
  std::vector<double> noise_;
  std::vector<std::vector<detect::RunPoint>> noise_history_;  // per case, oldest first
  std::vector<GpuHistory> histories_;
};

}  // namespace warpwatch::server::gpu_health::power

#endif  // WARPWATCH_TESTS_SERVER_GPU_HEALTH_POWER_VIRTUAL_FLEET_H_
