// The per-run decision: is the new run of a series slower, faster or the same as its baseline?
// Decided on run medians: the change against the level of the device's own baseline runs, its
// p-value under the series' noise model (noise_model.h: the case's spread on every GPU of the
// model pooled with the device's own recent runs) and a minimum relative change; one run's
// decisions then go through ControlFalseAlarms together. Cycles (time x SM clock) tell a slower
// GPU from slower code; a U-test on raw samples is reported as evidence and never decides.
#ifndef WARPWATCH_SERVER_DETECT_SERIES_DECISION_H_
#define WARPWATCH_SERVER_DETECT_SERIES_DECISION_H_

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "server/detect/attribution.h"
#include "server/detect/detection_config.h"
#include "server/detect/noise_model.h"
#include "server/detect/run_point.h"
#include "server/detect/verdict.h"

namespace warpwatch::server::detect {

// One quantity (time or cycles) of the new run against the baseline runs' values.
struct MedianTest {
  double baseline = 0;   // median of the baseline values: the level
  double sigma = 0;      // the prediction sigma of the new value around the level, absolute
  bool floored = false;  // the noise model's sigma is its floor
  double value = 0;      // the new run's value
  double change = 0;     // value / baseline - 1
  double z = 0;          // (value - baseline) / sigma
  double p_value = 1;    // two-sided, Student t with the noise model's dof
  Move move = Move::kSame;
};

struct SeriesDecision {
  Verdict verdict = Verdict::kUnsure;
  Blame blame = Blame::kNone;
  std::string reason;  // why UNSURE, or what the clock did; empty for plain verdicts
  size_t baseline_runs_used = 0;
  std::vector<int64_t> baseline_run_ids;  // oldest first
  MedianTest time;                        // seconds; valid when judged
  bool judged = false;  // the time was tested (the candidate and enough baseline runs were good)
  SeriesNoise noise;    // the sigma used, when judged
  double min_detectable_change = 0;  // for a lone change among `decisions_in_run` (noise_model.h)
  double baseline_sm_clock_mhz = 0;  // median over baseline runs with a known clock; 0 = unknown
  double new_sm_clock_mhz = 0;
  ClockComparison clock = ClockComparison::kUnknown;
  std::optional<MedianTest> cycles;  // set when both clocks are known
  // Two-sided Mann-Whitney p of the new run's samples against the baseline runs' pooled samples;
  // absent when either side has no samples. Evidence only.
  std::optional<double> u_test_p_value;
  // Set by ControlFalseAlarms: the p-value cutoff of the run and how many decisions shared it.
  std::optional<double> false_alarm_cutoff;
  size_t decisions_in_run = 0;
};

// Judges `candidate` against `baseline`: the baseline runs, normally the series' history (a pinned
// baseline may be passed instead). Bad runs are ignored, so a throttled or unverified run never
// forms a baseline; at most the newest config.baseline_runs good ones are used, of the candidate's
// own device only (config.same_device_only, SelectBaseline). `model_noise` is the case's spread on
// every GPU of the model (SuccessiveDifferenceNoise over a long window; unknown = the device's own
// runs alone). A move needs p <= config.false_alarm_rate and |change| >= min_relative_change; the
// run-wide control (ControlFalseAlarms) may still demote it. `decisions_in_run` (>= 1) sizes the
// published minimum detectable change. UNSURE (with a reason) when the candidate is not good
// (failed, unverified, throttled, a NaN or non-positive median), when fewer than
// config.min_baseline_runs good baseline runs remain, or when time and cycles disagree as
// attribution.h describes. Never fails; never throws.
SeriesDecision DecideSeries(const RunPoint& candidate, const std::vector<RunPoint>& baseline,
                            const DetectionConfig& config = DetectionConfig(),
                            const NoiseEstimate& model_noise = NoiseEstimate(),
                            size_t decisions_in_run = 144);

// The decision of a good `candidate` against `level_runs` (good runs already chosen: their median
// is the level; at least one) under `noise`: what DecideSeries does once it has its baseline and
// noise. Pinned baselines use it with the pinned runs as the level and the rolling window's noise.
SeriesDecision DecideAgainstRuns(const RunPoint& candidate, const std::vector<RunPoint>& level_runs,
                                 const SeriesNoise& noise, const DetectionConfig& config,
                                 size_t decisions_in_run);

// The move of `value` against `reference_values` (their median is the level) under `noise` with
// `reference_values.size()` baseline runs. Precondition: reference_values non-empty, positive and
// finite; value finite.
MedianTest TestMedian(double value, const std::vector<double>& reference_values,
                      const SeriesNoise& noise, const DetectionConfig& config);

}  // namespace warpwatch::server::detect

#endif  // WARPWATCH_SERVER_DETECT_SERIES_DECISION_H_
