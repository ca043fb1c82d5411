// The per-run decision: is the new run of a series slower, faster or the same as its baseline?
// Decided on run medians (robust z against the baseline runs' medians plus a minimum relative
// change); cycles (time x SM clock) tell a slower GPU from slower code; a U-test on raw samples
// is reported as evidence and never decides.
#ifndef WARPWATCH_SERVER_DETECT_SERIES_DECISION_H_
#define WARPWATCH_SERVER_DETECT_SERIES_DECISION_H_

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "server/detect/attribution.h"
#include "server/detect/detection_config.h"
#include "server/detect/run_point.h"
#include "server/detect/verdict.h"

namespace warpwatch::server::detect {

// One quantity (time or cycles) of the new run against the baseline runs' values.
struct MedianTest {
  double baseline = 0;   // median of the baseline values
  double sigma = 0;      // robust sigma (scaled MAD, floored)
  bool floored = false;  // sigma is the floor
  double value = 0;      // the new run's value
  double change = 0;     // value / baseline - 1
  double z = 0;          // (value - baseline) / sigma
  Move move = Move::kSame;
};

struct SeriesDecision {
  Verdict verdict = Verdict::kUnsure;
  Blame blame = Blame::kNone;
  std::string reason;  // why UNSURE, or what the clock did; empty for plain verdicts
  size_t baseline_runs_used = 0;
  std::vector<int64_t> baseline_run_ids;  // oldest first
  MedianTest time;                        // seconds; valid unless UNSURE for a bad input
  double baseline_sm_clock_mhz = 0;  // median over baseline runs with a known clock; 0 = unknown
  double new_sm_clock_mhz = 0;
  ClockComparison clock = ClockComparison::kUnknown;
  std::optional<MedianTest> cycles;  // set when both clocks are known
  // Two-sided Mann-Whitney p of the new run's samples against the baseline runs' pooled samples;
  // absent when either side has no samples. Evidence only.
  std::optional<double> u_test_p_value;
};

// Judges `candidate` against `baseline`: the baseline runs, normally SelectBaseline(history)
// (a pinned baseline may be passed instead). Bad runs in `baseline` are ignored here too, so a
// throttled or unverified run never forms a baseline; at most the newest config.baseline_runs
// good ones are used, from the candidate's own device when it has enough (SelectBaseline).
// UNSURE (with a reason) when the candidate is not good (failed, unverified, throttled, a NaN or
// non-positive median), when fewer than config.min_baseline_runs good baseline runs remain, or
// when time and cycles disagree as attribution.h describes. Never fails; never throws.
SeriesDecision DecideSeries(const RunPoint& candidate, const std::vector<RunPoint>& baseline,
                            const DetectionConfig& config = DetectionConfig());

// The move of `value` against `reference_values` under the config's z threshold, minimum change
// and MAD floor. Precondition: reference_values non-empty, positive and finite; value finite.
MedianTest TestMedian(double value, const std::vector<double>& reference_values,
                      const DetectionConfig& config);

}  // namespace warpwatch::server::detect

#endif  // WARPWATCH_SERVER_DETECT_SERIES_DECISION_H_
