// Deciding a run against a pinned baseline (runs a person chose, e.g. the release build's nightly
// run) instead of the series' rolling window. A pin is often one run per GPU, too few for a spread
// of its own, so the level comes from the pinned runs and the spread from the noise model.
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
  // As DecideSeries; baseline_run_ids / baseline_runs_used name the good pinned runs of the
  // candidate's GPU (oldest first), time.baseline is their level.
  SeriesDecision decision;
  // Where the spread came from, for people (the finding's method text).
  std::string spread;
};

// Judges a good `candidate` against the good runs of `pinned` of its own GPU (a pin of a schedule
// run holds one run per GPU; GPUs of one model differ by up to 1.7 %, so another GPU's pinned run
// is never this GPU's level; bad runs and the candidate's own run are dropped). nullopt when the
// candidate is not good or no pinned run of its GPU is left: the caller uses the rolling window.
//   Level: the median of those pinned runs' medians (k of them: the prediction sigma grows as
//   sqrt(1 + pi / 2k), so one pinned run asks for a larger change than ten).
//   Spread: the noise model, from `model_noise` and the pairs of the device's rolling window
//   (`rolling`, the series history the caller would have used, through SelectBaseline).
//   Cycles and U-test: as DecideSeries, against the pinned runs.
// Never fails; never throws.
std::optional<PinnedDecision> DecideAgainstPinned(
    const RunPoint& candidate, const std::vector<RunPoint>& pinned,
    const std::vector<RunPoint>& rolling, const DetectionConfig& config = DetectionConfig(),
    const NoiseEstimate& model_noise = NoiseEstimate(), size_t decisions_in_run = 144);

}  // namespace warpwatch::server::detect

#endif  // WARPWATCH_SERVER_DETECT_PINNED_DECISION_H_
