// Deciding a run against a pinned baseline (runs a person chose, e.g. the release build's nightly
// run) instead of the series' rolling window. A pin is often one run, too few for a spread of its
// own, so the level comes from the pinned runs and the spread, when needed, from the rolling
// window.
#ifndef WARPWATCH_SERVER_DETECT_PINNED_DECISION_H_
#define WARPWATCH_SERVER_DETECT_PINNED_DECISION_H_

#include <optional>
#include <string>
#include <vector>

#include "server/detect/detection_config.h"
#include "server/detect/run_point.h"
#include "server/detect/series_decision.h"

namespace warpwatch::server::detect {

struct PinnedDecision {
  // As DecideSeries; baseline_run_ids / baseline_runs_used name the good pinned runs (oldest
  // first), time.baseline is their level.
  SeriesDecision decision;
  // Where the spread came from, for people (the finding's method text): "the pinned runs",
  // "the rolling window's N runs, rescaled to the pinned level" or "the MAD floor only".
  std::string spread;
};

// Judges `candidate` against the good runs of `pinned` (detect::IsGoodRun; bad ones and the
// candidate's own run are dropped). nullopt when none is left: the caller uses the rolling window.
//   Level: the median of the good pinned runs' medians.
//   Spread: with at least config.min_baseline_runs good pinned runs, their own (DecideSeries over
//   all of them, whatever device). Otherwise the rolling window's (`rolling`, the series history
//   the caller would have used, passed through SelectBaseline): each of its baseline runs' median
//   is multiplied by pinned level / rolling level and its clock by pinned clock / rolling clock, so
//   the series' between-run noise is measured at the pinned level. When the rolling window has
//   fewer than min_baseline_runs good runs too, the pinned runs alone with the MAD floor as sigma.
//   Cycles: as DecideSeries on the same (rescaled) points.
//   U-test: the candidate's samples against the good pinned runs' pooled samples (evidence only;
//   absent when either side has none).
// Never fails; never throws.
std::optional<PinnedDecision> DecideAgainstPinned(
    const RunPoint& candidate, const std::vector<RunPoint>& pinned,
    const std::vector<RunPoint>& rolling, const DetectionConfig& config = DetectionConfig());

}  // namespace warpwatch::server::detect

#endif  // WARPWATCH_SERVER_DETECT_PINNED_DECISION_H_
