// File: tests/server/gpu_health/power/night_views.h
// The fleet views of one case over one night whose runs arrive one by one, as the server's
// analysis takes them: which runs some view judged, and the outlier each run was first reported as.
#ifndef WARPWATCH_TESTS_SERVER_GPU_HEALTH_POWER_NIGHT_VIEWS_H_
#define WARPWATCH_TESTS_SERVER_GPU_HEALTH_POWER_NIGHT_VIEWS_H_

#include <cstddef>
#include <optional>
#include <vector>

#include "server/detect/fleet_outliers.h"
#include "server/detect/run_point.h"

namespace warpwatch::server::gpu_health::power {

// Per run, in arrival order.
struct NightJudgement {
  std::vector<bool> judged;  // some view judged it
  // The first view's judgement that found it an outlier; none retracts it. Empty: never one.
  std::vector<std::optional<detect::DeviceJudgement>> outlier;
};

// `arrivals`: one case's points of one night, in the order the runs finished. The analysis of
// the k-th arrival judges the k runs in so far (its own included), but only from k = `first_view`
// on: the views of the first first_view - 1 arrivals judge nothing. first_view 1 is today's
// server (FindFleetOutliers itself judges no view of fewer than min_devices good runs);
// arrivals.size() is one view of the complete night. Precondition: first_view >= 1.
NightJudgement JudgeArrivals(const std::vector<detect::RunPoint>& arrivals, size_t first_view,
                             const detect::FleetConfig& config, double case_noise_relative);

// The first view that judges a night of `gpus` runs when judging starts once a share
// `judge_from` of them is in: ceil(judge_from x gpus), at least 1. judge_from <= 0: 1 (today's).
size_t FirstJudgingView(double judge_from, int gpus);

}  // namespace warpwatch::server::gpu_health::power

#endif  // WARPWATCH_TESTS_SERVER_GPU_HEALTH_POWER_NIGHT_VIEWS_H_
