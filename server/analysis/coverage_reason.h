// File: server/analysis/coverage_reason.h
// Why a case of an analysed run was not judged, as the run's coverage counts it
// (docs/regressions.md "Coverage of each run").
#ifndef WARPWATCH_SERVER_ANALYSIS_COVERAGE_REASON_H_
#define WARPWATCH_SERVER_ANALYSIS_COVERAGE_REASON_H_

#include <string>

#include "server/analysis/analysis_store.h"
#include "server/detect/detection_config.h"
#include "server/detect/series_decision.h"

namespace warpwatch::server::analysis {

// The reason of an UNSURE decision `d` on case `c`: clock_masked (time and cycles disagree),
// too_few_runs (a good point whose series has too few runs of this GPU), not_comparable (the same,
// measured with other settings than the nightly ones: the GPU's history of the case was measured
// another way), failed, unverified, throttled, bad_median. A fixed, small set (a metric label).
std::string CoverageReason(const RunCase& c, const detect::SeriesDecision& d,
                           const detect::DetectionConfig& config);

}  // namespace warpwatch::server::analysis

#endif  // WARPWATCH_SERVER_ANALYSIS_COVERAGE_REASON_H_
