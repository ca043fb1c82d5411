// File: server/analysis/finding_builder.h
// Turns the detector's verdicts into regression rows: what kind, which state a finding starts in
// (the policy of docs/regressions.md "Detection on every finished run"), its evidence and a method
// text naming the rule and its parameters.
#ifndef WARPWATCH_SERVER_ANALYSIS_FINDING_BUILDER_H_
#define WARPWATCH_SERVER_ANALYSIS_FINDING_BUILDER_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

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

// An OUTLIER row for each outlier device of `view` (the claimed run's night peers): the claimed
// run's own device with its measurement, another device under that device's run (run_id set,
// measurement looked up by the store), so a device analysed before enough peers had finished is
// still judged once they have; rows are unique per (run, case, kind), so a device is reported once
// a night. Outliers start OPEN: the view compares devices measured the same night, so a re-run on
// the same device adds little; the next night judges again.
std::vector<Finding> FindingsFromFleet(const ClaimedRun& run, const RunCase& run_case,
                                       const detect::FleetView& view,
                                       const detect::FleetConfig& config);

}  // namespace warpwatch::server::analysis

#endif  // WARPWATCH_SERVER_ANALYSIS_FINDING_BUILDER_H_
