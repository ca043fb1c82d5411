// File: server/analysis/finding_builder.h
// Turns the detector's verdicts into regression rows: what kind, which state a finding starts in
// (the policy of docs/regressions.md "Detection on every finished run"), its evidence and a method
// text naming the rule and its parameters.
#ifndef WARPWATCH_SERVER_ANALYSIS_FINDING_BUILDER_H_
#define WARPWATCH_SERVER_ANALYSIS_FINDING_BUILDER_H_

#include <cstdint>
#include <optional>
#include <string>

#include "server/analysis/analysis_config.h"
#include "server/analysis/analysis_store.h"
#include "server/detect/fleet_outliers.h"
#include "server/detect/series_decision.h"

namespace warpwatch::server::analysis {

// A REGRESSION (SLOWER) or IMPROVEMENT (FASTER) row for `decision` on `run_case`; nullopt for
// SAME and UNSURE. Starting state:
//  - blamed on the GPU (ENVIRONMENT: the time moved, the cycles did not): DISMISSED, recorded with
//    the clocks as evidence; no confirmation (the code did not change; the fleet view and the
//    throttle flags are where a slow GPU shows);
//  - from an uploaded run (no job, no worker to re-run it on): OPEN, unconfirmed;
//  - otherwise SUSPECTED until the confirmation run agrees (OPEN) or not (NOISE).
// With `pin` set the decision was made against that baseline pin (detect::DecideAgainstPinned):
// the method text starts with kMethodPinnedPrefix and names the pin and where the spread came from.
struct PinUsed {
  int64_t pin_id = 0;
  std::string spread;  // detect::PinnedDecision::spread
};
std::optional<Finding> FindingFromDecision(const ClaimedRun& run, const RunCase& run_case,
                                           const detect::SeriesDecision& decision,
                                           const detect::DetectionConfig& config,
                                           const PinUsed* pin = nullptr);

// An OUTLIER row when the claimed run's device is an outlier in `view` (its judgement's run is the
// claimed run); nullopt otherwise. Outliers start OPEN: the view compares devices measured within
// hours of each other, so a re-run on the same device adds little; the next night judges again.
std::optional<Finding> FindingFromFleet(const ClaimedRun& run, const RunCase& run_case,
                                        const detect::FleetView& view,
                                        const detect::FleetConfig& config);

}  // namespace warpwatch::server::analysis

#endif  // WARPWATCH_SERVER_ANALYSIS_FINDING_BUILDER_H_
