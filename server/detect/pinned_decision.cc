// DecideAgainstPinned: the pinned runs' level with their own spread, or the rolling window's.
#include "server/detect/pinned_decision.h"

#include <cmath>

#include "server/detect/baseline.h"
#include "server/detect/mann_whitney.h"
#include "server/detect/robust_stats.h"

namespace warpwatch::server::detect {
namespace {

// Median of the positive values of `values`; 0 when there is none (unknown clock).
double MedianOfKnown(const std::vector<double>& values) {
  std::vector<double> known;
  for (double v : values) {
    if (v > 0 && std::isfinite(v)) known.push_back(v);
  }
  return known.empty() ? 0 : Median(known);
}

std::optional<double> PooledUTestP(const RunPoint& candidate, const std::vector<RunPoint>& runs) {
  std::vector<double> pooled;
  for (const RunPoint& run : runs) {
    pooled.insert(pooled.end(), run.samples_seconds.begin(), run.samples_seconds.end());
  }
  if (pooled.empty() || candidate.samples_seconds.empty()) return std::nullopt;
  StatusOr<UTestResult> u = MannWhitneyUTest(candidate.samples_seconds, pooled);
  if (!u.ok()) return std::nullopt;
  return u->p_value;
}

// The rolling baseline runs moved to the pinned level (median and clock), samples dropped.
std::vector<RunPoint> Rescaled(const std::vector<RunPoint>& window, double pinned_level,
                               double pinned_clock) {
  std::vector<double> medians, clocks;
  for (const RunPoint& run : window) {
    medians.push_back(run.median_seconds);
    clocks.push_back(run.sm_clock_mhz);
  }
  const double time_factor = pinned_level / Median(medians);
  const double window_clock = MedianOfKnown(clocks);
  std::vector<RunPoint> out;
  for (RunPoint run : window) {
    run.median_seconds *= time_factor;
    // A clock only when both sides know theirs: otherwise cycles cannot be compared.
    run.sm_clock_mhz = pinned_clock > 0 && window_clock > 0 && run.sm_clock_mhz > 0
                           ? run.sm_clock_mhz * pinned_clock / window_clock
                           : 0;
    run.samples_seconds.clear();
    out.push_back(std::move(run));
  }
  return out;
}

}  // namespace

std::optional<PinnedDecision> DecideAgainstPinned(const RunPoint& candidate,
                                                  const std::vector<RunPoint>& pinned,
                                                  const std::vector<RunPoint>& rolling,
                                                  const DetectionConfig& config) {
  std::vector<RunPoint> good;
  for (const RunPoint& run : pinned) {
    if (run.run_id != candidate.run_id && IsGoodRun(run, config)) good.push_back(run);
  }
  if (good.empty()) return std::nullopt;
  std::vector<double> medians, clocks;
  for (const RunPoint& run : good) {
    medians.push_back(run.median_seconds);
    clocks.push_back(run.sm_clock_mhz);
  }
  const double level = Median(medians);

  PinnedDecision out;
  DetectionConfig every_pinned = config;
  every_pinned.baseline_runs = good.size();
  every_pinned.prefer_same_device = false;
  const std::vector<RunPoint> window = SelectBaseline(rolling, config, candidate.device_uuid);
  if (good.size() >= config.min_baseline_runs) {
    out.decision = DecideSeries(candidate, good, every_pinned);
    out.spread = "the pinned runs";
  } else if (window.size() >= config.min_baseline_runs) {
    out.decision = DecideSeries(candidate, Rescaled(window, level, MedianOfKnown(clocks)), config);
    out.spread = "the rolling window's " + std::to_string(window.size()) +
                 " runs, rescaled to the pinned level";
  } else {
    every_pinned.min_baseline_runs = 1;
    out.decision = DecideSeries(candidate, good, every_pinned);
    out.spread = "the MAD floor only (fewer than " + std::to_string(config.min_baseline_runs) +
                 " good runs pinned or in the rolling window)";
  }
  out.decision.baseline_run_ids.clear();
  for (const RunPoint& run : good) out.decision.baseline_run_ids.push_back(run.run_id);
  out.decision.baseline_runs_used = good.size();
  out.decision.u_test_p_value =
      IsGoodRun(candidate, config) ? PooledUTestP(candidate, good) : std::nullopt;
  return out;
}

}  // namespace warpwatch::server::detect
