// DecideSeries: the change of the run median against the device's own level, its p under the
// noise model, cycles for attribution, U-test as evidence.
#include "server/detect/series_decision.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "server/detect/baseline.h"
#include "server/detect/mann_whitney.h"
#include "server/detect/robust_stats.h"

namespace warpwatch::server::detect {
namespace {

std::string CountText(size_t have, size_t need) {
  char buffer[128];
  std::snprintf(buffer, sizeof(buffer), "%zu good baseline runs of this GPU, %zu needed", have,
                need);
  return buffer;
}

std::optional<double> UTestP(const RunPoint& candidate, const std::vector<RunPoint>& baseline) {
  std::vector<double> pooled;
  for (const RunPoint& run : baseline) {
    pooled.insert(pooled.end(), run.samples_seconds.begin(), run.samples_seconds.end());
  }
  if (pooled.empty() || candidate.samples_seconds.empty()) return std::nullopt;
  StatusOr<UTestResult> u = MannWhitneyUTest(candidate.samples_seconds, pooled);
  if (!u.ok()) return std::nullopt;  // a NaN sample: no evidence rather than a wrong one
  return u->p_value;
}

// A decision that names the candidate's clock and its baseline runs, not judged yet.
SeriesDecision Unjudged(const RunPoint& candidate, size_t decisions_in_run,
                        const std::vector<RunPoint>& baseline) {
  SeriesDecision decision;
  decision.new_sm_clock_mhz = candidate.sm_clock_mhz > 0 ? candidate.sm_clock_mhz : 0;
  decision.decisions_in_run = decisions_in_run;
  decision.baseline_runs_used = baseline.size();
  for (const RunPoint& run : baseline) decision.baseline_run_ids.push_back(run.run_id);
  return decision;
}

}  // namespace

MedianTest TestMedian(double value, const std::vector<double>& reference_values,
                      const SeriesNoise& noise, const DetectionConfig& config) {
  MedianTest test;
  test.baseline = Median(reference_values);
  test.value = value;
  test.change = value / test.baseline - 1;
  const double sigma_relative = PredictionSigma(noise, reference_values.size());
  test.sigma = sigma_relative * test.baseline;
  test.floored = noise.floored;
  test.z = test.change / sigma_relative;
  test.p_value = ChangePValue(test.change, noise, reference_values.size());
  if (test.p_value <= config.false_alarm_rate) {
    if (test.change >= config.min_relative_change) {
      test.move = Move::kUp;
    } else if (test.change <= -config.min_relative_change) {
      test.move = Move::kDown;
    }
  }
  return test;
}

SeriesDecision DecideSeries(const RunPoint& candidate, const std::vector<RunPoint>& baseline,
                            const DetectionConfig& config, const NoiseEstimate& model_noise,
                            size_t decisions_in_run) {
  SeriesDecision decision = Unjudged(candidate, decisions_in_run, {});
  const std::string why_not = WhyNotGood(candidate, config);
  if (!why_not.empty()) {
    decision.reason = "new run not judged: " + why_not;
    return decision;
  }
  // Keep the newest good runs of the candidate's GPU, as SelectBaseline would, whatever the
  // caller passed.
  const std::vector<RunPoint> good = SelectBaseline(baseline, config, candidate.device_uuid);
  decision = Unjudged(candidate, decisions_in_run, good);
  if (good.size() < config.min_baseline_runs || good.empty()) {
    decision.reason = "too few baseline runs: " + CountText(good.size(), config.min_baseline_runs);
    return decision;
  }

  return DecideAgainstRuns(
      candidate, good, CombineNoise(model_noise, SuccessiveDifferenceNoise(good, config), config),
      config, decisions_in_run);
}

SeriesDecision DecideAgainstRuns(const RunPoint& candidate, const std::vector<RunPoint>& level_runs,
                                 const SeriesNoise& noise, const DetectionConfig& config,
                                 size_t decisions_in_run) {
  SeriesDecision decision = Unjudged(candidate, decisions_in_run, level_runs);
  const std::vector<RunPoint>& good = level_runs;
  // Cycles are judged only with a clock on enough of the level runs (all of them when fewer
  // than min_baseline_runs were given, as for a pin).
  const size_t min_clocked = std::min(config.min_baseline_runs, level_runs.size());
  std::vector<double> medians, cycles, clocks;
  for (const RunPoint& run : good) {
    medians.push_back(run.median_seconds);
    const double c = MedianCycles(run);
    if (std::isfinite(c)) {
      cycles.push_back(c);
      clocks.push_back(run.sm_clock_mhz);
    }
  }
  decision.noise = noise;
  decision.time = TestMedian(candidate.median_seconds, medians, decision.noise, config);
  decision.judged = true;
  decision.min_detectable_change =
      MinimumDetectableChange(decision.noise, good.size(), decisions_in_run, config);
  decision.u_test_p_value = UTestP(candidate, good);

  const double new_cycles = MedianCycles(candidate);
  // Cycles need a clock for the new run and for enough baseline runs to judge their spread.
  double clock_change = 0;
  if (std::isfinite(new_cycles) && cycles.size() >= min_clocked && !cycles.empty()) {
    decision.baseline_sm_clock_mhz = Median(clocks);
    decision.cycles = TestMedian(new_cycles, cycles, decision.noise, config);
    clock_change = candidate.sm_clock_mhz / decision.baseline_sm_clock_mhz - 1;
    decision.clock = std::fabs(clock_change) <= config.clock_tolerance ? ClockComparison::kSame
                                                                       : ClockComparison::kChanged;
  }
  const Attribution attribution =
      Attribute(decision.time.move, decision.cycles ? decision.cycles->move : Move::kSame,
                decision.clock, clock_change);
  decision.verdict = attribution.verdict;
  decision.blame = attribution.blame;
  decision.reason = attribution.reason;
  return decision;
}

}  // namespace warpwatch::server::detect
